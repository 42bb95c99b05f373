import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { actionSource, canSend, initialBudget } from '../../lib/assistant'
import { ownerClient, renderWithProviders } from '../../testing/render'
import { MessageEditor } from '../MessageEditor'
import { replyFigures } from './AssistantPanel'

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial)
  return <MessageEditor value={value} onChange={setValue} showCancel11={false} />
}

const REMOTE = { model: 'qwen', remote: true, free_writing: true, actions: [
  { action: 'shorter', label: 'کوتاه‌تر', available: true, note: '' },
  { action: 'longer', label: 'بلندتر', available: true, note: '' },
  { action: 'friendly', label: 'لحن صمیمی', available: true, note: '' },
  { action: 'formal', label: 'لحن رسمی', available: true, note: '' },
] }
const OFFLINE = {
  model: 'offline', remote: false, free_writing: false, notice: 'دستیار آفلاین فعال است: نوشتن آزاد به مدل زبانی نیاز دارد.',
  actions: REMOTE.actions.map((a) => ({ ...a, note: `کار ${a.label}`, available: a.action !== 'longer' })),
}

const ok = (data: unknown) => new Response(JSON.stringify({ data, meta: { status: 200 } }), { status: 200 })

/**
 * A fetch stand-in for /panel/agent: GET answers the capabilities, POST answers the test
 * releases one by one (a text, or a whole reply).
 */
function stubAgent(capabilities: unknown = REMOTE) {
  const bodies: Array<Record<string, unknown>> = []
  const waiting: Array<(reply: string | Record<string, unknown>) => void> = []
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init?: RequestInit) => {
      if ((init?.method ?? 'GET') === 'GET') return Promise.resolve(ok(capabilities))
      bodies.push(JSON.parse(String(init?.body)))
      return new Promise<Response>((resolve) => {
        waiting.push((reply) => {
          const r = typeof reply === 'string' ? { thought: reply, parts: 1, characters: reply.length, refused: false } : reply
          resolve(ok({ conversation_id: 41, model: 'offline', ...r }))
        })
      })
    }),
  )
  return { bodies, answer: (reply: string | Record<string, unknown>) => waiting.shift()?.(reply) }
}

describe('assistant helpers', () => {
  it('rewrites the last reply, else the draft, and sends only non-empty text when idle', () => {
    expect(actionSource([], ' متن ')).toBe('متن')
    expect(actionSource([{ type: 'ai', text: 'الف' }, { type: 'user', text: 'ب' }], 'متن')).toBe('الف')
    expect(actionSource([{ type: 'ai', text: 'الف' }, { type: 'ai', text: '', refused: true, notice: 'چرا' }], 'متن')).toBe('الف')
    expect(initialBudget(0)).toBe(1)
    expect(initialBudget(2)).toBe(2)
    expect(initialBudget(5)).toBe(3)
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
    await waitFor(() => expect(copy).toHaveAttribute('data-copied', 'false'))

    await userEvent.click(within(last).getByTestId('assistant-use'))
    const editor = screen.getByRole('textbox', { name: 'متن پیامک' }) as HTMLTextAreaElement
    await waitFor(() => expect(editor.value).toBe('کفش آریا: تخفیف!'))
    expect(screen.getByText('تعداد کاراکتر: ۱۶ | بخش‌ها: ۱ | باقیمانده تا بخش بعد: ۵۴')).toBeInTheDocument()
  }, 20_000)

  it('shows an error through the shared error component', async () => {
    vi.stubGlobal('fetch', vi.fn(async (_u: string, init?: RequestInit) => (init?.method ?? 'GET') === 'GET' ? ok(REMOTE)
      : new Response(JSON.stringify({ data: null, meta: { status: 429, message: 'سهمیه روزانه تمام شده است' } }), { status: 429 })))
    renderWithProviders(<Harness initial="متن تخفیف" />, { queryClient: ownerClient() })
    await userEvent.click(screen.getByTestId('assistant-open'))
    await userEvent.click(await screen.findByRole('button', { name: 'لحن رسمی' }))
    expect(await screen.findByTestId('assistant-error')).toHaveTextContent('سهمیه روزانه تمام شده است')
  }, 20_000)

  it('offline: says free writing needs a remote model, which actions there are, and why a reply was refused', async () => {
    const agent = stubAgent(OFFLINE)
    const draft = 'مشتری گرامی، فروش ویژه پاییزه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود. فرصت را از دست ندهید!'
    renderWithProviders(<Harness initial={draft} />, { queryClient: ownerClient() })
    await userEvent.click(screen.getByTestId('assistant-open'))
    expect(await screen.findByTestId('assistant-offline')).toHaveTextContent('نوشتن آزاد به مدل زبانی نیاز دارد')
    expect(screen.getByRole('textbox', { name: 'درخواست از دستیار' })).toBeDisabled()
    expect(screen.getByTestId('assistant-send')).toBeDisabled()
    expect(screen.getByRole('button', { name: 'بلندتر' })).toBeDisabled()
    expect(screen.getByTestId('assistant-unavailable')).toHaveTextContent('«بلندتر» با مدل فعلی در دسترس نیست.')
    expect(screen.getByTestId('assistant-notes')).toHaveTextContent('کوتاه‌تر: کار کوتاه‌تر')
    expect(screen.getByRole('button', { name: '۲' })).toHaveAttribute('aria-pressed', 'true') // the draft's two parts

    await userEvent.click(screen.getByRole('button', { name: 'لحن رسمی' }))
    expect(agent.bodies[0]).toMatchObject({ action: 'formal', text: draft, parts: 2 })
    agent.answer({ thought: draft, parts: 2, characters: 104, refused: true, notice: 'پاسخ کنار گذاشته شد، چون «۳۰ درصد» در پاسخ نبود؛ متن شما بدون تغییر ماند.' })
    const refused = await screen.findByTestId('assistant-reply')
    expect(refused).toHaveAttribute('data-refused', 'true')
    expect(refused).toHaveTextContent('«۳۰ درصد» در پاسخ نبود')
    expect(within(refused).queryByTestId('assistant-use')).toBeNull()

    await userEvent.click(screen.getByRole('button', { name: 'کوتاه‌تر' }))
    expect(agent.bodies[1]).toMatchObject({ action: 'shorter', text: draft, conversation_id: 41 })
    agent.answer({ thought: 'فروش ویژه پاییزه کفش آریا با ۳۰ درصد تخفیف تا ۱۵ آذر برگزار می‌شود.', parts: 2, characters: 70, refused: false,
      notice: 'کوتاه‌ترین متن درست ۲ بخش است.' })
    await waitFor(() => expect(screen.getAllByTestId('assistant-reply')).toHaveLength(2))
    const shorter = screen.getAllByTestId('assistant-reply')[1]
    expect(within(shorter).getByTestId('assistant-notice')).toHaveTextContent('کوتاه‌ترین متن درست ۲ بخش است.')
    expect(within(shorter).getByTestId('assistant-use')).toBeEnabled()
  }, 20_000)
})
