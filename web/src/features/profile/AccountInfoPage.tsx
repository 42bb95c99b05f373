import { Avatar, Badge, Button, Flex, HStack, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useRef } from 'react'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState } from '../../components/States'
import { errorText, isApiError } from '../../lib/api'
import { toaster } from '../../lib/toaster'
import { mobileText, Row } from './parts'
import { useLogo, useProfile, useUploadLogo } from './api'

const MAX_IMAGE = 2 * 1024 * 1024

/** The account's identity at a glance, with its logo. */
export function AccountSummary() {
  const profile = useProfile()
  const logo = useLogo(profile.data?.has_logo, profile.data?.updated_at)
  const upload = useUploadLogo()
  const input = useRef<HTMLInputElement>(null)
  if (profile.isPending) return <Skeleton h="40" rounded="card" />
  if (!profile.data) return <ErrorState description={errorText(profile.error)} onRetry={() => profile.refetch()} />
  const p = profile.data
  const pick = (file: File | undefined) => {
    if (!file) return
    if (file.size > MAX_IMAGE) {
      toaster.create({ type: 'error', description: 'حجم تصویر باید حداکثر ۲ مگابایت باشد' })
      return
    }
    upload.mutate(file, {
      onSuccess: () => toaster.create({ type: 'success', description: 'لوگو ذخیره شد' }),
      onError: (err) => toaster.create({ type: 'error', description: (isApiError(err) && err.fieldError('logo')) || errorText(err) }),
    })
  }
  const title = p.person_type === 'legal' ? p.details.company_name : [p.details.first_name, p.details.last_name].join(' ').trim()
  return (
    <SectionCard data-testid="account-summary">
      <Flex gap="4" align="center" wrap="wrap">
        <Avatar.Root size="2xl" shape="rounded">
          {logo.data && <Avatar.Image src={logo.data} alt="لوگو" data-testid="profile-logo" />}
          <Avatar.Fallback name={p.name} />
        </Avatar.Root>
        <Stack gap="1" flex="1" minW="40">
          <Text fontWeight="bold" fontSize="lg">
            {title || p.name}
          </Text>
          <HStack gap="2" wrap="wrap">
            <Badge>{p.person_type === 'legal' ? 'حقوقی' : 'حقیقی'}</Badge>
            <Badge colorPalette={p.complete ? 'green' : 'orange'}>{p.complete ? 'پروفایل کامل' : 'پروفایل ناقص'}</Badge>
          </HStack>
        </Stack>
        <input ref={input} type="file" accept="image/jpeg,image/png,image/gif" hidden data-testid="logo-input"
          onChange={(e) => { pick(e.target.files?.[0]); e.target.value = '' }} />
        <Button variant="outline" size="sm" loading={upload.isPending} onClick={() => input.current?.click()} data-testid="logo-upload">
          {p.has_logo ? 'تغییر لوگو' : 'بارگذاری لوگو'}
        </Button>
      </Flex>
      <Text fontSize="xs" color="app.muted" mt="2">
        تصویر JPG، PNG یا GIF تا ۲ مگابایت؛ در اندازه ۲۵۶ پیکسل ذخیره می‌شود.
      </Text>
    </SectionCard>
  )
}

/** /profile/account-info. */
export default function AccountInfoPage() {
  const profile = useProfile()
  const p = profile.data
  return (
    <Stack gap="4">
      <AccountSummary />
      {p && (
        <SectionCard title="اطلاعات حساب">
          <Row label="نام کاربری">
            <Text dir="ltr">{p.username}</Text>
          </Row>
          <Row label="نام">{p.name}</Row>
          <Row label="شماره همراه">{mobileText(p.mobile)}</Row>
          <Row label="نقش">{p.is_owner ? 'مالک حساب' : 'همکار'}</Row>
          <Row label="ایمیل">{p.details.email || '—'}</Row>
        </SectionCard>
      )}
    </Stack>
  )
}
