import { Badge, Stack } from '@chakra-ui/react'
import { ProfileNav } from './parts'
import { AccountSummary } from './AccountInfoPage'
import { useProfile } from './api'

/** /profile: the account's summary and the way to each profile page. */
export default function ProfilePage() {
  const profile = useProfile()
  const docs = profile.data?.documents ?? {}
  const badges = {
    'personal-info': profile.data && !profile.data.complete ? <Badge colorPalette="orange">ناقص</Badge> : null,
    documents: docs.pending ? <Badge colorPalette="orange">در انتظار بررسی</Badge> : docs.rejected ? <Badge colorPalette="red">رد شده</Badge> : null,
  }
  return (
    <Stack gap="5">
      <AccountSummary />
      <ProfileNav badges={badges} />
    </Stack>
  )
}
