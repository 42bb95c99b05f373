import { describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { renderWithProviders } from '../../testing/render'
import { ModerationDialog } from './ModerationDialog'

describe('ModerationDialog', () => {
  it('edits the words one per line and saves the rules', async () => {
    const saved: unknown[] = []
    vi.stubGlobal('fetch', vi.fn(async (_url: string, init?: RequestInit) => {
      if (init?.method === 'POST') saved.push(JSON.parse(String(init.body)))
      const data = { words: ['کازینو', 'قمار'], links: true, new_account_sends: 0, new_account_size: 0 }
      return new Response(JSON.stringify({ data, meta: { status: 200 } }), { status: 200 })
    }))
    const onClose = vi.fn()
    renderWithProviders(<ModerationDialog onClose={onClose} />)
    const words = await screen.findByTestId('moderation-words')
    expect(words).toHaveValue('کازینو\nقمار')
    fireEvent.change(words, { target: { value: 'کازینو\nحراج' } })
    fireEvent.click(screen.getByTestId('moderation-save'))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(saved).toEqual([{ words: ['کازینو', 'حراج'], links: true, new_account_sends: 0, new_account_size: 0 }])
  })
})
