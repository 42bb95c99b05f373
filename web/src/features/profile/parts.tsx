import { Badge, Box, Flex, Heading, Link, SimpleGrid, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { Link as RouterLink } from 'react-router'
import { displayMobile } from '../../lib/mobile'

/** The profile's pages, in the hub's order. */
export const PROFILE_PAGES: { path: string; title: string; detail: string }[] = [
  { path: 'account-info', title: 'اطلاعات حساب', detail: 'نام کاربری، شماره همراه، لوگو و طرح' },
  { path: 'personal-info', title: 'اطلاعات شخصی', detail: 'شخص حقیقی یا حقوقی و مشخصات هویتی' },
  { path: 'contact-info', title: 'اطلاعات تماس', detail: 'ایمیل، تلفن ثابت و سایت' },
  { path: 'address-info', title: 'اطلاعات نشانی', detail: 'استان، شهر، نشانی و کد پستی' },
  { path: 'documents', title: 'مدارک', detail: 'بارگذاری مدارک و وضعیت بررسی' },
  { path: 'change-phone-number', title: 'تغییر شماره موبایل', detail: 'تایید هر دو شماره و بررسی پشتیبانی' },
  { path: 'security-setting', title: 'تنظیمات امنیتی', detail: 'رمز عبور، ورود دومرحله‌ای و نشست‌ها' },
  { path: 'tariffs', title: 'تعرفه‌ها', detail: 'قیمت هر بخش پیامک و محاسبه‌گر قیمت' },
  { path: 'settings', title: 'تنظیمات حساب', detail: 'هشدار اعتبار، خط پیش‌فرض و اعلان‌ها' },
]

/** The cards that lead to the profile's pages. */
export function ProfileNav({ badges }: { badges?: Record<string, ReactNode> }) {
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="3" data-testid="profile-nav">
      {PROFILE_PAGES.map((p) => (
        <Link asChild key={p.path} _hover={{ textDecoration: 'none', borderColor: 'brand.solid' }} display="block"
          bg="app.surface" borderWidth="1px" borderColor="app.border" rounded="card" p="4" shadow="card">
          <RouterLink to={`/profile/${p.path}`} data-testid={`profile-nav-${p.path}`}>
            <Flex justify="space-between" align="center" gap="2">
              <Heading as="h3" size="sm">
                {p.title}
              </Heading>
              {badges?.[p.path]}
            </Flex>
            <Text fontSize="sm" color="app.muted" mt="1">
              {p.detail}
            </Text>
          </RouterLink>
        </Link>
      ))}
    </SimpleGrid>
  )
}

const STATUS: Record<string, [string, string]> = {
  pending: ['در انتظار بررسی', 'orange'],
  verifying: ['در انتظار کد شماره جدید', 'blue'],
  approved: ['تایید شده', 'green'],
  rejected: ['رد شده', 'red'],
  cancelled: ['لغو شده', 'gray'],
}

/** A review status as a coloured badge. */
export function ReviewBadge({ status }: { status: string }) {
  const [label, color] = STATUS[status] ?? [status, 'gray']
  return (
    <Badge colorPalette={color} variant="subtle" rounded="full" px="2.5" data-testid="review-status" data-status={status}>
      {label}
    </Badge>
  )
}

/** A mobile 98XXXXXXXXXX as «۰۹…» in Persian digits. */
export const mobileText = displayMobile

/** A label and value row of a summary. */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex justify="space-between" gap="3" py="2" borderBottomWidth="1px" borderColor="app.border" _last={{ borderBottomWidth: 0 }}>
      <Text color="app.muted" fontSize="sm">
        {label}
      </Text>
      <Box fontWeight="medium" textAlign="end">
        {children}
      </Box>
    </Flex>
  )
}
