import type { ComponentType } from 'react'
import type { IconProps } from '@chakra-ui/react'
import {
  BoltIcon, ChartIcon, ClockIcon, CodeIcon, ColleaguesIcon, ContactsIcon, FileIcon, FolderIcon, GiftIcon, HomeIcon, InboxIcon, MessageIcon,
  PatternIcon, SecretaryIcon, SendIcon, ShieldIcon, SupportIcon, WalletIcon,
} from '../../components/outlineIcons'
import { allows, type Acl, type Permission } from '../../lib/acl'

export interface MenuLink {
  label: string
  to: string
  /** Extra path prefixes that mark this item active. */
  match?: string[]
  /** Path prefixes beneath `to` that belong to another item. */
  exclude?: string[]
  /** What a colleague's role needs to see the item ('owner': the owner only). */
  perm?: Permission | 'owner'
  /** A live count shown on the item: 'inbox' is the unread received messages. */
  badge?: 'inbox'
}

export interface MenuItem extends Partial<MenuLink> {
  label: string
  icon: ComponentType<IconProps>
  children?: MenuLink[]
}

export interface MenuGroup {
  title?: string
  items: MenuItem[]
}

/** The side menu of spec §2, worded per the glossary. */
export const MENU: MenuGroup[] = [
  {
    items: [
      { label: 'پیشخوان', to: '/dashboard', icon: HomeIcon },
      { label: 'ارسال سریع', to: '/send-sms/quick', icon: BoltIcon, perm: 'send.create' },
      { label: 'ارسال پیامک', to: '/send-sms', icon: SendIcon, perm: 'send.create', exclude: ['/send-sms/quick', '/send-sms/campaigns', '/send-sms/occasions', '/send-sms/drafts'] },
      { label: 'زمان‌بندی و کمپین‌ها', to: '/send-sms/campaigns', icon: ClockIcon, perm: 'report.view' },
      { label: 'پیام مناسبتی', to: '/send-sms/occasions', icon: GiftIcon, perm: 'report.view' },
      { label: 'گزارش‌ها', to: '/reports', icon: ChartIcon, perm: 'report.view' },
      { label: 'لینک‌های ردیابی', to: '/links', icon: ChartIcon, perm: 'send.create' },
      { label: 'پیامک‌های دریافتی', to: '/inbox', icon: InboxIcon, perm: 'report.view', badge: 'inbox' },
      { label: 'پیش‌نویس‌ها', to: '/send-sms/drafts', icon: FileIcon, perm: 'send.create' },
      { label: 'پیام‌های از پیش تعریف‌شده', to: '/predefined-messages', icon: MessageIcon, perm: 'predefined.view' },
      { label: 'مخاطبین', to: '/contacts', icon: ContactsIcon, perm: 'phonebook.view' },
    ],
  },
  {
    title: 'خدمات',
    items: [
      { label: 'الگو (پترن)', to: '/pattern', icon: PatternIcon, perm: 'send.create' },
      { label: 'همکاران', to: '/colleagues', icon: ColleaguesIcon, perm: 'partner.manage' },
      { label: 'گزارش فعالیت‌ها', to: '/audit-log', icon: ShieldIcon, perm: 'audit.view' },
      {
        label: 'منشی',
        icon: SecretaryIcon,
        children: [
          { label: 'منشی پیام دریافتی', to: '/secretary/received-message/inbox', match: ['/secretary/received-message'], perm: 'send.create' },
          { label: 'کلیدخوان', to: '/secretary/keywords/list', match: ['/secretary/keywords'], perm: 'send.create' },
        ],
      },
      {
        label: 'برنامه‌نویسان',
        icon: CodeIcon,
        children: [
          { label: 'افزونه‌ها', to: '/developers/plugins' },
          { label: 'کلیدهای API', to: '/developers/api-keys', perm: 'apikey.manage' },
          { label: 'وب‌هوک‌ها', to: '/developers/webhooks', perm: 'apikey.manage' },
          { label: 'فراخوانی‌های API', to: '/developers/api-calls', perm: 'apikey.manage' },
          { label: 'مستندات', to: '/developers/documents' },
        ],
      },
    ],
  },
  {
    title: 'مالی',
    items: [
      {
        label: 'امور مالی',
        icon: WalletIcon,
        children: [
          { label: 'کیف پول', to: '/wallet/credit', match: ['/wallet/payment-result'], perm: 'wallet.view' },
          { label: 'تراکنش‌ها', to: '/wallet/transactions', perm: 'wallet.view' },
        ],
      },
      { label: 'مدیریت فایل', to: '/file-management', icon: FolderIcon, perm: 'file.manage' },
    ],
  },
  {
    title: 'پشتیبانی',
    items: [
      {
        label: 'پشتیبانی',
        icon: SupportIcon,
        children: [
          { label: 'مرکز پشتیبانی', to: '/support' },
          { label: 'تیکت‌ها', to: '/support/tickets', match: ['/support/create-ticket', '/support/create-suggestion-request', '/support/suggestion-request'], perm: 'support.manage' },
          { label: 'اطلاعات تماس', to: '/support/contact-info' },
        ],
      },
    ],
  },
]

/** Whether a menu link is the current page (the link itself or a page beneath it). */
export function isLinkActive(link: MenuLink, pathname: string): boolean {
  const under = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`)
  if ((link.exclude ?? []).some(under)) return false
  return under(link.to) || (link.match ?? []).some(under)
}

export function isItemActive(item: MenuItem, pathname: string): boolean {
  if (item.to && isLinkActive(item as MenuLink, pathname)) return true
  return (item.children ?? []).some((c) => isLinkActive(c, pathname))
}

/** The menu as the access list allows it: items and links the role lacks are left out, and so are groups left empty. */
export function filterMenu(menu: MenuGroup[], acl: Acl | undefined): MenuGroup[] {
  return menu
    .map((group) => ({
      ...group,
      items: group.items
        .filter((item) => allows(acl, item.perm))
        .map((item) => (item.children ? { ...item, children: item.children.filter((c) => allows(acl, c.perm)) } : item))
        .filter((item) => !item.children || item.children.length > 0),
    }))
    .filter((group) => group.items.length > 0)
}

/** Pages a permission guards beyond the menu's own links (longest prefix wins). */
const EXTRA_ROUTE_PERMS: Array<[string, Permission | 'owner']> = [
  ['/send-sms/success-send', 'send.create'],
]

/** The permission the page at pathname needs, from the menu's links: a colleague without it sees the 403-8 message. */
export function routePermission(pathname: string, menu: MenuGroup[] = MENU): Permission | 'owner' | undefined {
  let best: { len: number; perm: Permission | 'owner' } | undefined
  const consider = (prefix: string, perm: Permission | 'owner' | undefined) => {
    const under = pathname === prefix || pathname.startsWith(`${prefix}/`)
    if (perm && under && (!best || prefix.length > best.len)) best = { len: prefix.length, perm }
  }
  for (const group of menu) {
    for (const item of group.items) {
      for (const link of [item, ...(item.children ?? [])]) {
        if (!link.to) continue
        if ((link.exclude ?? []).some((p) => pathname === p || pathname.startsWith(`${p}/`))) continue
        for (const prefix of [link.to, ...(link.match ?? [])]) consider(prefix, link.perm ?? item.perm)
      }
    }
  }
  for (const [prefix, perm] of EXTRA_ROUTE_PERMS) consider(prefix, perm)
  return best?.perm
}
