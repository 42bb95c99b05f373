import { Button, Field, Heading, HStack, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { Modal } from '../../components/Overlays'
import { ServerMessage } from '../../components/ServerMessage'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { adminApi, useAdminMutation, useSystemicPatterns, type SystemicInput, type SystemicPattern } from './api'

const KINDS = { otp: 'کد یک‌بارمصرف', transactional: 'اطلاع‌رسانی', normal: 'عادی' }

/** Variables as staff type them: one a line, «name,type,length» (type and length optional). */
export function parseVariables(text: string): SystemicInput['variables'] {
  return text.split('\n').map((l) => l.split(',').map((c) => c.trim())).filter((c) => c[0])
    .map(([name, type, length]) => ({ name, type: type === 'integer' ? 'integer' : 'string', length: Number(length) || 20 }))
}

/** /admin/patterns: the systemic patterns staff define; customers read and send them. */
export default function SystemicPatternsPage() {
  const list = useUrlListState()
  const { data, isPending, isError, refetch } = useSystemicPatterns({ page: list.page, limit: list.limit })
  const [editing, setEditing] = useState<Partial<SystemicPattern> | null>(null)
  const columns: DataTableColumn<SystemicPattern>[] = [
    { key: 'title', title: 'عنوان' },
    { key: 'code', title: 'کد', render: (p) => <bdi dir="ltr">{p.code}</bdi> },
    { key: 'kind', title: 'نوع', render: (p) => KINDS[p.kind] },
    { key: 'text', title: 'متن', hideOnMobile: true, render: (p) => <Text lineClamp={2} maxW="360px">{p.text}</Text> },
    { key: 'version', title: 'نسخه', render: (p) => toPersianDigits(p.version) },
    { key: 'updated_at', title: 'آخرین تغییر', hideOnMobile: true, render: (p) => formatJalaliDateTime(p.updated_at) },
    { key: 'actions', title: 'اقدام', render: (p) => <Button size="xs" variant="outline" onClick={() => setEditing(p)}>ویرایش</Button> },
  ]
  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap">
        <Heading size="lg">الگوهای سیستمی</Heading>
        <Button size="sm" colorPalette="brand" onClick={() => setEditing({})} data-testid="systemic-new">الگوی سیستمی جدید</Button>
      </HStack>
      <DataTable caption="الگوهای سیستمی" columns={columns} rows={data?.rows} total={data?.meta.total} rowKey={(p) => p.id}
        isLoading={isPending} isError={isError} onRetry={() => refetch()} emptyText="الگوی سیستمی تعریف نشده است" />
      {editing && <SystemicDialog pattern={editing} onClose={() => setEditing(null)} />}
    </Stack>
  )
}

function SystemicDialog({ pattern, onClose }: { pattern: Partial<SystemicPattern>; onClose: () => void }) {
  const [form, setForm] = useState({
    title: pattern.title ?? '', description: pattern.description ?? '', text: pattern.text ?? '', kind: pattern.kind ?? 'otp',
    vars: (pattern.variables ?? []).map((v) => `${v.name},${v.type},${v.length}`).join('\n'),
  })
  const save = useAdminMutation(adminApi.saveSystemic)
  const submit = () => save.mutate({ id: pattern.id, title: form.title, description: form.description, text: form.text,
    kind: form.kind, variables: parseVariables(form.vars) }, { onSuccess: onClose })
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }))
  return (
    <Modal open onClose={onClose} title={pattern.id ? 'ویرایش الگوی سیستمی' : 'الگوی سیستمی جدید'} closeOnInteractOutside={false}
      footer={<HStack gap="2"><Button variant="outline" onClick={onClose}>انصراف</Button>
        <Button colorPalette="brand" loading={save.isPending} onClick={submit}>ذخیره (بی‌درنگ فعال می‌شود)</Button></HStack>}>
      <Stack gap="3">
        <Field.Root required><Field.Label>عنوان</Field.Label><Input value={form.title} onChange={set('title')} /></Field.Root>
        <Field.Root><Field.Label>توضیحات</Field.Label><Input value={form.description} onChange={set('description')} /></Field.Root>
        <Field.Root>
          <Field.Label>نوع</Field.Label>
          <NativeSelect.Root><NativeSelect.Field value={form.kind} onChange={set('kind')}>
            {Object.entries(KINDS).map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </NativeSelect.Field><NativeSelect.Indicator /></NativeSelect.Root>
        </Field.Root>
        <Field.Root required><Field.Label>متن (متغیرها با %نام%)</Field.Label><Textarea rows={4} value={form.text} onChange={set('text')} /></Field.Root>
        <Field.Root>
          <Field.Label>متغیرها</Field.Label>
          <Textarea dir="ltr" rows={3} value={form.vars} onChange={set('vars')} placeholder="code,integer,6" />
          <Field.HelperText>هر سطر یک متغیر: نام، نوع (string یا integer)، طول</Field.HelperText>
        </Field.Root>
        {save.error && <ServerMessage error={save.error} color="fg.error" fontSize="sm" />}
      </Stack>
    </Modal>
  )
}
