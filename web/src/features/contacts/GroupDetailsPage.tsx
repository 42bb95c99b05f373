import { Button, Grid, HStack, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { ErrorState, StaleNote } from '../../components/States'
import { FileIcon } from '../../components/outlineIcons'
import { isApiError } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDate } from '../../lib/jalali'
import { SectionCard } from '../../components/SectionCard'
import { useDeletePhonebooks, usePhonebook } from './api'
import { ContactsTable } from './ContactsTable'
import { ImportWizard } from './ImportWizard'
import { PhonebookFormModal } from './PhonebookFormModal'
import { DeleteDialog, Fact, faText, useDeleteFlow } from './ui'

/** /contacts/group/{id}: one phonebook, its contacts, import and export. */
export default function GroupDetailsPage() {
  const { id = '' } = useParams()
  const navigate = useNavigate()
  const phonebook = usePhonebook(id)
  const remove = useDeletePhonebooks()
  const [importing, setImporting] = useState(false)
  const [renaming, setRenaming] = useState(false)
  const p = phonebook.data
  const deleting = useDeleteFlow<number>(remove.mutateAsync, () => 'گروه حذف شد', () => navigate('/contacts?tab=1', { replace: true }))

  if (phonebook.isPending) return <Skeleton h="48" rounded="card" />
  // A refresh that fails keeps the group on screen (with a note), unless it is gone.
  if (!p || isApiError(phonebook.error, 404))
    return (
      <SectionCard>
        <ErrorState
          title={isApiError(phonebook.error, 404) ? 'گروه پیدا نشد' : undefined}
          onRetry={isApiError(phonebook.error, 404) ? undefined : () => phonebook.refetch()}
        />
      </SectionCard>
    )

  return (
    <Stack gap={{ base: '4', md: '6' }}>
      {phonebook.isError && <StaleNote alignSelf="flex-start" />}
      <SectionCard
        title={<Text as="span" data-testid="group-name">{faText(p.name)}</Text>}
        description="مخاطبین این گروه؛ برای افزودن گروهی از «ورود از فایل» استفاده کنید."
        actions={
          <HStack gap="2" wrap="wrap">
            <Button size="sm" variant="ghost" onClick={() => setRenaming(true)}>تغییر نام</Button>
            <Button size="sm" variant="ghost" colorPalette="red" onClick={() => deleting.ask([p.id])}>حذف گروه</Button>
          </HStack>
        }
      >
        <Grid templateColumns={{ base: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' }} gap="4">
          <Fact label="کد گروه" value={<bdi>{toPersianDigits(p.code || '—')}</bdi>} />
          <Fact label="تعداد مخاطبین" value={<span data-testid="group-members">{formatNumber(p.members ?? 0)}</span>} />
          <Fact label="تاریخ ایجاد" value={p.created_at ? formatJalaliDate(p.created_at) : '—'} />
        </Grid>
      </SectionCard>
      <SectionCard title="مخاطبین گروه">
        <ContactsTable
          phonebookId={p.id}
          extraActions={
            <Button size="sm" variant="outline" onClick={() => setImporting(true)} data-testid="group-import">
              <FileIcon /> ورود از فایل
            </Button>
          }
        />
      </SectionCard>
      <ImportWizard open={importing} onClose={() => setImporting(false)} phonebookId={p.id} />
      <PhonebookFormModal open={renaming} onClose={() => setRenaming(false)} phonebook={p} />
      <DeleteDialog flow={deleting} title="حذف گروه">
        {() => `گروه «${faText(p.name)}» و همه ${formatNumber(p.members ?? 0)} مخاطب آن حذف شوند؟`}
      </DeleteDialog>
    </Stack>
  )
}
