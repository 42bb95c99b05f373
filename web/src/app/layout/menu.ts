import type { ComponentType } from 'react'
import type { IconProps } from '@chakra-ui/react'
import {
  ChartIcon, ClockIcon, CodeIcon, ColleaguesIcon, ContactsIcon, FolderIcon, HomeIcon, InboxIcon, MessageIcon,
  PatternIcon, SecretaryIcon, SendIcon, ShieldIcon, SupportIcon, WalletIcon,
} from '../../components/outlineIcons'

export interface MenuLink {
  label: string
  to: string
  /** Extra path prefixes that mark this item active. */
  match?: string[]
  /** Path prefixes beneath `to` that belong to another item. */
  exclude?: string[]
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
      { label: 'ارسال پیامک', to: '/send-sms', icon: SendIcon, exclude: ['/send-sms/campaigns'] },
      { label: 'زمان‌بندی و کمپین‌ها', to: '/send-sms/campaigns', icon: ClockIcon },
      { label: 'گزارش‌ها', to: '/reports', icon: ChartIcon },
      { label: 'پیامک‌های دریافتی', to: '/inbox', icon: InboxIcon },
      { label: 'پیام‌های از پیش تعریف‌شده', to: '/predefined-messages', icon: MessageIcon },
      { label: 'مخاطبین', to: '/contacts', icon: ContactsIcon },
    ],
  },
  {
    title: 'خدمات',
    items: [
      { label: 'الگو (پترن)', to: '/pattern', icon: PatternIcon },
      { label: 'همکاران', to: '/colleagues', icon: ColleaguesIcon },
      { label: 'گزارش فعالیت‌ها', to: '/audit-log', icon: ShieldIcon },
      {
        label: 'منشی',
        icon: SecretaryIcon,
        children: [
          { label: 'منشی پیام دریافتی', to: '/secretary/received-message/inbox', match: ['/secretary/received-message'] },
          { label: 'کلیدخوان', to: '/secretary/keywords/list', match: ['/secretary/keywords'] },
        ],
      },
      {
        label: 'برنامه‌نویسان',
        icon: CodeIcon,
        children: [
          { label: 'افزونه‌ها', to: '/developers/plugins' },
          { label: 'کلیدهای API', to: '/developers/api-keys' },
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
          { label: 'کیف پول', to: '/wallet/credit', match: ['/wallet/payment-result'] },
          { label: 'تراکنش‌ها', to: '/wallet/transactions' },
        ],
      },
      { label: 'مدیریت فایل', to: '/file-management', icon: FolderIcon },
    ],
  },
  {
    title: 'پشتیبانی',
    items: [
      {
        label: 'پشتیبانی',
        icon: SupportIcon,
        children: [
          { label: 'تیکت‌ها', to: '/support/tickets', match: ['/support/create-ticket'] },
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
