import type { ComponentType } from 'react'
import type { IconProps } from '@chakra-ui/react'
import {
  BoltIcon, BookIcon, BuildingIcon, FileIcon, GlobeIcon, HashIcon, MailIcon, MapPinIcon, PeerIcon, TowerIcon,
} from './outlineIcons'

export interface SendMethod {
  key: string
  title: string
  description: string
  path: string
  icon: ComponentType<IconProps>
}

/** The ten send methods of spec §1, worded per the glossary. */
export const SEND_METHODS: SendMethod[] = [
  { key: 'quick', title: 'ارسال سریع', description: 'ارسال یک متن به فهرستی از شماره‌ها در چند ثانیه', path: '/send-sms/quick', icon: BoltIcon },
  { key: 'phonebook', title: 'ارسال از دفترچه تلفن', description: 'ارسال به مخاطبان یک یا چند دفترچه تلفن', path: '/send-sms/phonebook', icon: BookIcon },
  { key: 'file', title: 'ارسال از فایل', description: 'بارگذاری فایل اکسل، CSV یا متنی شماره‌ها', path: '/send-sms/file', icon: FileIcon },
  { key: 'keyword', title: 'ارسال کلیدواژه‌ای', description: 'متن شخصی‌سازی‌شده با ستون‌های فایل', path: '/send-sms/keyword', icon: HashIcon },
  { key: 'peer-to-peer', title: 'ارسال نظیر به نظیر', description: 'متن جداگانه برای هر شماره از فایل اکسل', path: '/send-sms/peer-to-peer', icon: PeerIcon },
  { key: 'business', title: 'ارسال بر اساس صنف (مشاغل)', description: 'ارسال به صاحبان مشاغل بر اساس صنف', path: '/send-sms/business', icon: BuildingIcon },
  { key: 'map', title: 'ارسال روی نقشه', description: 'انتخاب محدوده روی نقشه برای ارسال منطقه‌ای', path: '/send-sms/map', icon: MapPinIcon },
  { key: 'postalcode', title: 'ارسال بر اساس کد پستی', description: 'ارسال به ساکنان محدوده‌های کد پستی', path: '/send-sms/postalcode', icon: MailIcon },
  { key: 'city-province', title: 'ارسال استانی و شهری', description: 'ارسال به شماره‌های یک استان یا شهر', path: '/send-sms/city-province', icon: GlobeIcon },
  { key: 'tower-irancell', title: 'ارسال بر اساس دکل ایرانسل', description: 'ارسال به مشترکان تحت پوشش دکل‌های ایرانسل', path: '/send-sms/tower-irancell', icon: TowerIcon },
]
