import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { actionSource, canSend } from '../../lib/assistant'
import { ownerClient, renderWithProviders } from '../../testing/render'
import { MessageEditor } from '../MessageEditor'
import { replyFigures } from './AssistantPanel'

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial)
  return <MessageEditor value={value} onChange={setValue} showCancel11={false} />
}

/** A fetch stand-in for /panel/agent whose answers the test releases one by one. */
function stubAgent() {
  const bodies: Array<Record<string, unknown>> = []
  const waiting: Array<(thought: string) => void> = []
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)))
      return new Promise<Response>((resolve) => {
        waiting.push((thought) =>
          resolve(new Response(JSON.stringify({ data: { thought, conversation_id: 41, parts: 1, characters: thought.length, model: 'offline' }, meta: { status: 200 } }), { status: 200 })),
        )
      })
    }),
  )
  return { bodies, answer: (thought: string) => waiting.shift()?.(thought) }
}

describe('assistant helpers', () => {
  it('rewrites the last reply, else the draft, and sends only non-empty text when idle', () => {
    expect(actionSource([], ' متن ')).toBe('متن')
    expect(actionSource([{ type: 'ai', text: 'الف' }, { type: 'user', text: 'ب' }], 'متن')).toBe('الف')
    expect(canSend('  ', false)).toBe(false)
    expect(canSend('سلام', true)).toBe(false)
    expect(canSend('سلام', false)).toBe(true)
    expect(replyFigures({ type: 'ai', text: 'سلام' }, true)).toBe('۱ بخش · ۱۰ نویسه')
    expect(replyFigures({ type: 'ai', text: 'سلام {link:7}', parts: 1, characters: 35 }, false)).toBe('۱ بخش · ۳۵ نویسه')
  })
})

describe('the assistant side panel', () => {
  it('chats, keeps the conversation id, copies and puts the reply into the editor', async () => {
    const agent = stubAgent()
    const clip = vi.fn(() => Promise.resolve())
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: clip }, configurable: true })
    renderWithProviders(<Harness />, { queryClient: ownerClient() })
    await userEvent.click(screen.getByTestId('assistant-open'))
    const send = await screen.findByTestId('assistant-send')
    expect(send).toBeDisabled()
    await userEvent.type(screen.getByRole('textbox', { name: 'درخواست از دستیار' }), 'یک تبلیغ برای کفش بنویس')
    expect(send).toBeEnabled()
    await userEvent.click(send)
    expect(await screen.findByTestId('assistant-pending')).toBeInTheDocument()
    await userEvent.type(screen.getByRole('textbox', { name: 'درخواست از دستیار' }), 'دوباره')
    expect(send).toBeDisabled() // a reply is awaited
    expect(agent.bodies[0]).toMatchObject({ text: 'یک تبلیغ برای کفش بنویس', parts: 1, cancel11: false })
    expect(agent.bodies[0].conversation_id).toBeUndefined()
    agent.answer('کفش آریا\nتخفیف ویژه!')
    const reply = await screen.findByTestId('assistant-reply')
    expect(reply).toHaveTextContent('تخفیف ویژه!')
    await userEvent.click(screen.getByRole('button', { name: 'کوتاه‌تر' }))
    expect(agent.bodies[1]).toMatchObject({ action: 'shorter', text: 'کفش آریا\nتخفیف ویژه!', conversation_id: 41 })
    agent.answer('کفش آریا: تخفیف!')
    await waitFor(() => expect(screen.getAllByTestId('assistant-reply')).toHaveLength(2))

    const last = screen.getAllByTestId('assistant-reply')[1]
    const copy = within(last).getByTestId('assistant-copy')
    await userEvent.click(copy)
    expect(clip).toHaveBeenCalledWith('کفش آریا: تخفیف!')
    await waitFor(() => expect(copy).toHaveAttribute('data-copied', 'true'))
    await waitFor(() => expect(copy).toHaveAttribute('data-copied', 'false'), { timeout: 20_000 })

    await userEvent.click(within(last).getByTestId('assistant-use'))
    const editor = screen.getByRole('textbox', { name: 'متن پیامک' }) as HTMLTextAreaElement
    await waitFor(() => expect(editor.value).toBe('کفش آریا: تخفیف!'))
    expect(screen.getByText('تعداد کاراکتر: ۱۶ | بخش‌ها: ۱ | باقیمانده تا بخش بعد: ۵۴')).toBeInTheDocument()
  }, 20_000)

  it('shows an error through the shared error component', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ data: null, meta: { status: 429, message: 'سهمیه روزانه تمام شده است' } }), { status: 429 })))
    renderWithProviders(<Harness initial="متن تخفیف" />, { queryClient: ownerClient() })
    await userEvent.click(screen.getByTestId('assistant-open'))
    await userEvent.click(await screen.findByRole('button', { name: 'لحن رسمی' }))
    expect(await screen.findByTestId('assistant-error')).toHaveTextContent('سهمیه روزانه تمام شده است')
  }, 20_000)
})
