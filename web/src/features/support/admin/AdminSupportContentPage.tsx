import { Badge, Button, HStack, Input, Stack, Switch, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../../components/DataTable'
import { FormField } from '../../../components/FormField'
import { Modal } from '../../../components/Overlays'
import { SectionCard } from '../../../components/SectionCard'
import { Select } from '../../../components/Select'
import { ServerMessage } from '../../../components/ServerMessage'
import { errorText } from '../../../lib/api'
import { toPersianDigits } from '../../../lib/digits'
import { formatJalaliDateTime } from '../../../lib/jalali'
import { useUrlListState } from '../../../lib/urlState'
import { toaster } from '../../../lib/toaster'
import { Stars } from '../parts'
import {
  useAdminFAQCategories,
  useAdminFeedback,
  useAdminFAQs,
  useCanned,
  useDeleteCanned,
  useDeleteFAQ,
  useSaveCanned,
  useSaveFAQ,
  useSaveFAQCategory,
  type Canned,
  type FeedbackRow,
  type FAQ,
} from '../api'

/** /admin/support/content: the FAQ customers search and the canned answers staff insert. */
export default function AdminSupportContentPage() {
  return (
    <Stack gap="4">
      <FAQCard />
      <CannedCard />
      <FeedbackCard />
    </Stack>
  )
}

function FAQCard() {
  const faqs = useAdminFAQs()
  const cats = useAdminFAQCategories()
  const del = useDeleteFAQ()
  const saveCat = useSaveFAQCategory()
  const [editing, setEditing] = useState<Partial<FAQ> | null>(null)
  const [newCat, setNewCat] = useState('')
  const columns: DataTableColumn<FAQ>[] = [
    { key: 'category', title: 'دسته', render: (f) => f.category },
    { key: 'question', title: 'پرسش', render: (f) => <Text as="span" lineClamp={2}>{f.question}</Text> },
    { key: 'active', title: 'نمایش', render: (f) => <Badge colorPalette={f.active ? 'green' : 'gray'}>{f.active ? 'فعال' : 'پنهان'}</Badge> },
    {
      key: 'actions',
      title: '',
      render: (f) => (
        <HStack gap="1">
          <Button size="xs" variant="ghost" onClick={() => setEditing(f)}>ویرایش</Button>
          <Button size="xs" variant="ghost" colorPalette="red" onClick={() => del.mutate(f.id, { onError: (e) => toaster.create({ type: 'error', title: errorText(e) }) })}>حذف</Button>
        </HStack>
      ),
    },
  ]
  return (
    <SectionCard
      title="پرسش‌های متداول"
      description="آنچه مشتریان در صفحه پشتیبانی جستجو می‌کنند."
      actions={<Button size="sm" colorPalette="brand" onClick={() => setEditing({ active: true, position: 0 })} data-testid="faq-new">پرسش جدید</Button>}
    >
      <Stack gap="3">
        <HStack gap="2">
          <Input size="sm" value={newCat} onChange={(e) => setNewCat(e.target.value)} placeholder="عنوان دسته جدید" maxW="xs" aria-label="عنوان دسته جدید" />
          <Button size="sm" variant="outline" disabled={!newCat.trim()} loading={saveCat.isPending}
            onClick={() => saveCat.mutate({ title: newCat, position: (cats.data?.length ?? 0) + 1 }, { onSuccess: () => setNewCat(''), onError: (e) => toaster.create({ type: 'error', title: errorText(e) }) })}>
            افزودن دسته
          </Button>
        </HStack>
        <DataTable caption="پرسش‌های متداول" columns={columns} rows={faqs.data} rowKey={(f) => f.id} isLoading={faqs.isLoading} isError={faqs.isError} onRetry={() => void faqs.refetch()} />
      </Stack>
      {editing && <FAQForm value={editing} onClose={() => setEditing(null)} categories={(cats.data ?? []).map((c) => ({ value: c.id, label: c.title }))} />}
    </SectionCard>
  )
}

function FAQForm({ value, onClose, categories }: { value: Partial<FAQ>; onClose: () => void; categories: { value: number; label: string }[] }) {
  const [f, setF] = useState(value)
  const save = useSaveFAQ()
  return (
    <Modal open onClose={onClose} title={f.id ? 'ویرایش پرسش' : 'پرسش جدید'}
      footer={<Button colorPalette="brand" loading={save.isPending} onClick={() => save.mutate(f, { onSuccess: onClose })} data-testid="faq-save">ذخیره</Button>}>
      <Stack gap="3">
        <FormField label="دسته" required>
          <Select options={categories} value={f.category_id ?? null} onChange={(v) => setF({ ...f, category_id: v ?? undefined })} aria-label="دسته" />
        </FormField>
        <FormField label="پرسش" required><Input value={f.question ?? ''} onChange={(e) => setF({ ...f, question: e.target.value })} data-testid="faq-question" /></FormField>
        <FormField label="پاسخ" required><Textarea rows={5} value={f.answer ?? ''} onChange={(e) => setF({ ...f, answer: e.target.value })} data-testid="faq-answer" /></FormField>
        <Switch.Root checked={f.active ?? true} onCheckedChange={(e) => setF({ ...f, active: e.checked })} colorPalette="brand">
          <Switch.HiddenInput />
          <Switch.Control><Switch.Thumb /></Switch.Control>
          <Switch.Label>نمایش به مشتریان</Switch.Label>
        </Switch.Root>
        {save.error && <ServerMessage error={save.error} color="fg.error" />}
      </Stack>
    </Modal>
  )
}

function CannedCard() {
  const q = useCanned()
  const del = useDeleteCanned()
  const [editing, setEditing] = useState<Partial<Canned> | null>(null)
  const columns: DataTableColumn<Canned>[] = [
    { key: 'title', title: 'عنوان', render: (c) => c.title },
    { key: 'text', title: 'متن', render: (c) => <Text as="span" lineClamp={2}>{c.text}</Text> },
    {
      key: 'actions',
      title: '',
      render: (c) => (
        <HStack gap="1">
          <Button size="xs" variant="ghost" onClick={() => setEditing(c)}>ویرایش</Button>
          <Button size="xs" variant="ghost" colorPalette="red" onClick={() => del.mutate(c.id)}>حذف</Button>
        </HStack>
      ),
    },
  ]
  return (
    <SectionCard title="پاسخ‌های آماده" description="متن‌هایی که کارشناسان هنگام پاسخ به تیکت درج می‌کنند."
      actions={<Button size="sm" colorPalette="brand" onClick={() => setEditing({})}>پاسخ آماده جدید</Button>}>
      <DataTable caption="پاسخ‌های آماده" columns={columns} rows={q.data} rowKey={(c) => c.id} isLoading={q.isLoading} isError={q.isError} onRetry={() => void q.refetch()} />
      {editing && <CannedForm value={editing} onClose={() => setEditing(null)} />}
    </SectionCard>
  )
}

function CannedForm({ value, onClose }: { value: Partial<Canned>; onClose: () => void }) {
  const [c, setC] = useState(value)
  const save = useSaveCanned()
  return (
    <Modal open onClose={onClose} title={c.id ? 'ویرایش پاسخ آماده' : 'پاسخ آماده جدید'}
      footer={<Button colorPalette="brand" loading={save.isPending} onClick={() => save.mutate(c, { onSuccess: onClose })}>ذخیره</Button>}>
      <Stack gap="3">
        <FormField label="عنوان" required><Input value={c.title ?? ''} onChange={(e) => setC({ ...c, title: e.target.value })} /></FormField>
        <FormField label="متن" required><Textarea rows={5} value={c.text ?? ''} onChange={(e) => setC({ ...c, text: e.target.value })} /></FormField>
        {save.error && <ServerMessage error={save.error} color="fg.error" />}
      </Stack>
    </Modal>
  )
}

const FB_URL = { pageKey: 'fb_page', limitKey: 'fb_limit' }

const FEEDBACK_COLUMNS: DataTableColumn<FeedbackRow>[] = [
  { key: 'created_at', title: 'زمان', render: (f) => formatJalaliDateTime(f.created_at) },
  { key: 'account', title: 'حساب', render: (f) => `${f.account_name} (${toPersianDigits(f.account_id)})` },
  { key: 'rating', title: 'امتیاز', render: (f) => <Stars value={f.rating} /> },
  { key: 'text', title: 'متن', render: (f) => <Text as="span" lineClamp={3}>{f.text || '—'}</Text> },
]

function FeedbackCard() {
  const list = useUrlListState(FB_URL)
  const q = useAdminFeedback({ page: list.page, limit: list.limit })
  return (
    <SectionCard title="بازخورد مشتریان درباره پنل">
      <DataTable caption="بازخورد مشتریان" columns={FEEDBACK_COLUMNS} rowKey={(f) => f.id} {...pagedQueryProps(q)} url={FB_URL} emptyText="بازخوردی ثبت نشده است" />
    </SectionCard>
  )
}
