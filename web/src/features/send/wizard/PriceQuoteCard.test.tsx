import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import type { PriceQuote } from '../api'
import { PriceQuoteCard } from './PriceQuoteCard'

const quote = {
  parts: 1,
  encoding: 'ucs2',
  characters: 5,
  chars_left: 65,
  cancel11: false,
  requested: 6000,
  recipients: 6000,
  duplicates: 0,
  invalid: 0,
  blacklisted: 0,
  total_parts: 6000,
  price: 1_440_000,
  charity: 0,
  per_operator: [{ operator: 'mci', recipients: 6000, parts: 6000, price: 1_440_000 }],
} as unknown as PriceQuote

describe('PriceQuoteCard', () => {
  // A bank audience is priced on the bank alone: the account's lists would turn the
  // quote into a lookup of the numbers on them (docs/targeted-sends.md).
  it('says the account lists do not apply to a bank send', () => {
    renderWithProviders(<PriceQuoteCard quote={quote} loading={false} error={null} onRetry={() => undefined} bank />)
    expect(screen.getByTestId('quote-lists-note').textContent).toContain('روی شماره‌های بانک اعمال نمی‌شود')
    expect(screen.queryByTestId('quote-skipped')).toBeNull()
  })

  it('says blacklisted recipients are free for any other send', () => {
    renderWithProviders(
      <PriceQuoteCard quote={{ ...quote, blacklisted: 2 }} loading={false} error={null} onRetry={() => undefined} />,
    )
    expect(screen.getByTestId('quote-lists-note').textContent).toContain('کسر نمی‌شود')
    expect(screen.getByTestId('quote-skipped').textContent).toContain('۲ شماره در لیست سیاه')
  })

  // Numbers that blocked advertising SMS at their operator (*800#) get a line of their own.
  it('shows the operator-blocked numbers apart from the account lists', () => {
    renderWithProviders(
      <PriceQuoteCard quote={{ ...quote, operator_blocked: 3 }} loading={false} error={null} onRetry={() => undefined} />,
    )
    expect(screen.getByTestId('quote-operator-blocked').textContent).toContain('۳ شماره دریافت پیامک تبلیغاتی')
    expect(screen.queryByTestId('quote-skipped')).toBeNull()
  })

  it('has no operator-blocked line when none is blocked', () => {
    renderWithProviders(<PriceQuoteCard quote={quote} loading={false} error={null} onRetry={() => undefined} />)
    expect(screen.queryByTestId('quote-operator-blocked')).toBeNull()
  })
})
