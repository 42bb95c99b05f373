import { Link, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { SectionCard } from '../../components/SectionCard'
import { EmptyState, ErrorState, LoadingState } from '../../components/States'
import { useContactInfo } from './api'

/** The contact items staff keep in the back office (content kind «contact»). */
export function ContactList() {
  const q = useContactInfo()
  if (q.isLoading) return <LoadingState />
  if (q.isError) return <ErrorState onRetry={() => void q.refetch()} />
  if (!q.data?.length) return <EmptyState title="اطلاعات تماسی ثبت نشده است" />
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="3" data-testid="contact-info">
      {q.data.map((c) => (
        <Stack key={c.id} gap="1" p="3" rounded="lg" bg="app.raised" borderWidth="1px" borderColor="app.border">
          <Text fontSize="sm" color="app.muted">{c.title}</Text>
          {c.link ? (
            <Link href={c.link} fontWeight="bold" dir="auto">{c.body || c.link}</Link>
          ) : (
            <Text fontWeight="bold" dir="auto">{c.body}</Text>
          )}
        </Stack>
      ))}
    </SimpleGrid>
  )
}

/** /support/contact-info. */
export default function ContactInfoPage() {
  return (
    <SectionCard title="اطلاعات تماس" description="راه‌های ارتباط با پشتیبانی چاپار." maxW="4xl">
      <ContactList />
    </SectionCard>
  )
}
