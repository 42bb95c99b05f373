import { describe, expect, it } from 'vitest'
import { groupScopes, parseIPs } from './model'

describe('parseIPs', () => {
  it('splits lines, commas and spaces and reads Persian digits', () => {
    expect(parseIPs('۱۲۷.۰.۰.۱\n10.0.0.0/8, ::1  ،2001:db8::/32\n\n')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', '2001:db8::/32'])
  })
})

describe('groupScopes', () => {
  it('groups by feature in order', () => {
    const g = groupScopes([
      { key: 'send.create', title: 'ارسال', group: 'send', group_title: 'ارسال پیامک' },
      { key: 'wallet.view', title: 'کیف پول', group: 'wallet', group_title: 'امور مالی' },
      { key: 'send.cancel', title: 'لغو', group: 'send', group_title: 'ارسال پیامک' },
    ])
    expect(g.map((x) => [x.key, x.items.length])).toEqual([['send', 2], ['wallet', 1]])
  })
})
