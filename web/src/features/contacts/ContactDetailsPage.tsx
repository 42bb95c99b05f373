import { Badge, Button, Grid, HStack, Link, Skeleton, Stack, Table } from '@chakra-ui/react'
import { useState } from 'react'
import { Link as RouterLink, useNavigate, useParams } from 'react-router'
import { ErrorState, StaleNote } from '../../components/States'
import { isApiError } from '../../lib/api'
import { formatJalaliDate, formatJalaliDateTime } from '../../lib/jalali'
import { SectionCard } from '../../components/SectionCard'
import { MiniTable } from '../../components/MiniTable'
import {
  useAddToList, useAllFeatures, useContact, useContacts, useDeleteContacts, useRemoveFromList,
} from './api'
import { ContactFormModal } from './ContactFormModal'
import { GENDER_LABELS, LIST_LABELS, localMobile, type Contact, type Feature, type ListKind } from './model'
import { DeleteDialog, Fact, faText, Mobile, TagList, toastError, toastSuccess, useDeleteFlow } from './ui'

const KINDS: ListKind[] = ['send', 'receive', 'cancel11']
const LIST_COLUMNS = [{ title: 'لیست' }, { title: 'وضعیت' }, { title: 'تاریخ ورود' }, { title: 'عملیات', align: 'end' as const }]

function featureText(f: Feature | undefined, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—'
  if (f?.type === 'date' && typeof v === 'string') return formatJalaliDate(v) || v
  return String(v)
}

/** The lists the number is on, with the date it entered each; add to or remove from them. */
function ListsCard({ contact }: { contact: Contact }) {
  const add = useAddToList()
  const remove = useRemoveFromList()
  const marks = new Map((contact.blacklists ?? []).map((b) => [b.kind, b.created_at]))
  const run = (kind: ListKind, on: boolean) => {
    const opts = {
      onSuccess: () => toastSuccess(on ? `به ${LIST_LABELS[kind]} افزوده شد` : `از ${LIST_LABELS[kind]} حذف شد`),
      onError: toastError,
    }
    if (on) add.mutate({ kind, numbers: [contact.number] }, opts)
    else remove.mutate({ kind, numbers: [contact.number] }, opts)
  }
  return (
    <SectionCard title="لیست‌های سیاه" description="تاریخ ورود این شماره به هر لیست">
      <MiniTable caption="لیست‌های سیاه" columns={LIST_COLUMNS}>
        {KINDS.map((kind) => {
          const at = marks.get(kind)
          return (
            <Table.Row key={kind} data-testid={`contact-list-${kind}`} data-on={at ? 'true' : 'false'}>
              <Table.Cell>{LIST_LABELS[kind]}</Table.Cell>
              <Table.Cell>
                <Badge colorPalette={at ? 'red' : 'gray'} variant="subtle">{at ? 'در لیست' : 'خارج از لیست'}</Badge>
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{at ? formatJalaliDateTime(at) : '—'}</Table.Cell>
              <Table.Cell textAlign="end">
                {at ? (
                  <Button size="xs" variant="ghost" colorPalette="red" onClick={() => run(kind, false)} loading={remove.isPending}>
                    حذف از لیست
                  </Button>
                ) : kind !== 'cancel11' ? (
                  <Button size="xs" variant="ghost" onClick={() => run(kind, true)} loading={add.isPending}>
                    افزودن به لیست
                  </Button>
                ) : null}
              </Table.Cell>
            </Table.Row>
          )
        })}
      </MiniTable>
    </SectionCard>
  )
}

/** The other phonebooks holding the same number (the contact's groups). */
function GroupsOfNumber({ contact }: { contact: Contact }) {
  const same = useContacts({ search: localMobile(contact.number), page: 1, limit: 50 })
  const rows = (same.data?.rows ?? []).filter((r) => r.number === contact.number)
  if (same.isPending) return <Skeleton h="6" w="40" />
  if (rows.length === 0) return <>{faText(contact.phonebook_name)}</>
  return (
    <HStack gap="2" wrap="wrap">
      {rows.map((r) => (
        <Link key={r.id} asChild colorPalette="brand" fontWeight="medium">
          <RouterLink to={`/contacts/group/${r.phonebook_id}`}>{faText(r.phonebook_name)}</RouterLink>
        </Link>
      ))}
    </HStack>
  )
}

/** /contacts/{id}: one contact, its groups, tags, custom features and blacklist dates. */
export default function ContactDetailsPage() {
  const { id = '' } = useParams()
  const navigate = useNavigate()
  const contact = useContact(id)
  const features = useAllFeatures()
  const remove = useDeleteContacts()
  const [editing, setEditing] = useState(false)
  const c = contact.data
  const deleting = useDeleteFlow<number>(remove.mutateAsync, () => 'مخاطب حذف شد', () =>
    navigate(c ? `/contacts/group/${c.phonebook_id}` : '/contacts', { replace: true }),
  )

  if (contact.isPending) return <Skeleton h="64" rounded="card" />
  // A refresh that fails keeps the contact on screen (with a note), unless it is gone.
  if (!c || isApiError(contact.error, 404))
    return (
      <SectionCard>
        <ErrorState
          title={isApiError(contact.error, 404) ? 'مخاطب پیدا نشد' : undefined}
          onRetry={isApiError(contact.error, 404) ? undefined : () => contact.refetch()}
        />
      </SectionCard>
    )

  const byLatin = new Map((features.data ?? []).map((f) => [f.title_en, f]))
  const featureKeys = [...new Set([...(features.data ?? []).filter((f) => f.enabled).map((f) => f.title_en), ...Object.keys(c.features ?? {})])]

  return (
    <Stack gap={{ base: '4', md: '6' }}>
      {contact.isError && <StaleNote alignSelf="flex-start" />}
      <SectionCard
        data-testid="contact-details"
        title={c.name ? faText(c.name) : 'بدون نام'}
        description={<Mobile number={c.number} />}
        actions={
          <HStack gap="2">
            <Button size="sm" colorPalette="brand" variant="outline" onClick={() => setEditing(true)} data-testid="contact-details-edit">
              ویرایش
            </Button>
            <Button size="sm" colorPalette="red" variant="ghost" onClick={() => deleting.ask([c.id])}>
              حذف
            </Button>
          </HStack>
        }
      >
        <Grid templateColumns={{ base: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)', xl: 'repeat(4, 1fr)' }} gap="5">
          <Fact label="شماره موبایل" value={<Mobile number={c.number} />} />
          <Fact label="جنسیت" value={GENDER_LABELS[c.gender ?? ''] ?? '—'} />
          <Fact label="تاریخ تولد" value={c.birth_date ? formatJalaliDate(c.birth_date) : '—'} />
          <Fact label="تاریخ افزودن" value={c.created_at ? formatJalaliDate(c.created_at) : '—'} />
          <Fact label="گروه‌ها" value={<GroupsOfNumber contact={c} />} />
          <Fact label="برچسب‌ها" value={<TagList tags={c.tags} />} />
          {featureKeys.map((k) => (
            <Fact key={k} label={faText(byLatin.get(k)?.title_fa ?? k)} value={faText(featureText(byLatin.get(k), c.features?.[k]))} />
          ))}
        </Grid>
      </SectionCard>
      <ListsCard contact={c} />
      <ContactFormModal open={editing} onClose={() => setEditing(false)} contact={c} />
      <DeleteDialog flow={deleting} title="حذف مخاطب">
        {() => `این مخاطب از گروه «${faText(c.phonebook_name)}» حذف شود؟`}
      </DeleteDialog>
    </Stack>
  )
}
