import type { IconProps } from '@chakra-ui/react'
import type { ComponentType } from 'react'
import { ContactsIcon, FolderIcon, HashIcon, LockIcon, StopIcon } from '../../components/outlineIcons'
import { AllContactsTab } from './AllContactsTab'
import { FeaturesTab } from './FeaturesTab'
import { GroupsTab } from './GroupsTab'
import { BlacklistTab, Cancel11Tab } from './ListTab'

export type SectionKey = 'all' | 'groups' | 'features' | 'blacklist' | 'cancel11'

export interface Section {
  key: SectionKey
  title: string
  description: string
  /** The mobile-only page of this tab (spec §2). */
  path: string
  icon: ComponentType<IconProps>
  Component: ComponentType
}

/** The tabs of /contacts in order: `?tab=` is an index into this list. */
export const SECTIONS: Section[] = [
  { key: 'all', title: 'همه مخاطبین', description: 'جستجو، افزودن، ویرایش و خروجی مخاطبین', path: '/contacts/all-contacts', icon: ContactsIcon, Component: AllContactsTab },
  { key: 'groups', title: 'گروه‌ها', description: 'دسته‌بندی مخاطبین و ورود از فایل', path: '/contacts/all-groups', icon: FolderIcon, Component: GroupsTab },
  { key: 'features', title: 'ویژگی‌های سفارشی', description: 'مشخصه‌های دلخواه مخاطبین', path: '/contacts/manage-more-features', icon: HashIcon, Component: FeaturesTab },
  { key: 'blacklist', title: 'لیست سیاه', description: 'شماره‌هایی که پیامک دریافت یا ارسال نمی‌کنند', path: '/contacts/blacklist', icon: LockIcon, Component: BlacklistTab },
  { key: 'cancel11', title: 'لیست لغو۱۱', description: 'شماره‌هایی که «۱۱» فرستاده‌اند', path: '/contacts/cancel_11', icon: StopIcon, Component: Cancel11Tab },
]

export const sectionByKey = (key: SectionKey) => SECTIONS.find((s) => s.key === key)!
