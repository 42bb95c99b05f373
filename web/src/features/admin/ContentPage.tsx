import { Badge, Button, Checkbox, Field, Heading, HStack, Input, Stack, Tabs, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { Modal } from '../../components/Overlays'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { formatRial } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { adminApi, useAdminMutation, useContent, type ContentItem, type ContentKind } from './api'
import { OldPanelCard } from './OldPanelCard'

const KINDS: Array<{ kind: ContentKind; label: string; amount?: boolean }> = [
  { kind: 'news', label: 'اخبار پیشخوان' },
  { kind: 'banner', label: 'بنرها' },
  { kind: 'quick_access', label: 'دسترسی سریع' },
  { kind: 'contact', label: 'اطلاعات تماس' },
  { kind: 'charge_package', label: 'بسته‌های شارژ', amount: true },
  { kind: 'today_gift', label: 'هدیه امروز', amount: true },
]

const PLACEMENTS = [
  { value: 'carousel', label: 'اسلایدر' },
  { value: 'strip', label: 'نوار باریک بالای پیشخوان' },
] as const
const ACTIONS = [
  { value: 'new_tab', label: 'پیوند در زبانه جدید' },
  { value: 'same_window', label: 'پیوند در همین صفحه' },
  { value: 'popup', label: 'پنجره بازشو' },
] as const

/** A row of toggle buttons choosing one value (aria-pressed on the chosen one). */
function Choice<V extends string>({ label, options, value, onChange }: {
  label: string; options: ReadonlyArray<{ value: V; label: string }>; value: V; onChange: (v: V) => void
}) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <HStack gap="1.5" wrap="wrap" role="group" aria-label={label}>
        {options.map((o) => (
          <Button key={o.value} size="xs" variant={o.value === value ? 'solid' : 'outline'} colorPalette={o.value === value ? 'brand' : undefined}
            aria-pressed={o.value === value} onClick={() => onChange(o.value)}>{o.label}</Button>
        ))}
      </HStack>
    </Field.Root>
  )
}

const window_ = (it: ContentItem) =>
  [it.starts_at && `از ${formatJalaliDateTime(it.starts_at)}`, it.ends_at && `تا ${formatJalaliDateTime(it.ends_at)}`].filter(Boolean).join(' ') || 'همیشه'

/** /admin/content: what customers see, one tab per kind. */
export default function ContentPage() {
  const [kind, setKind] = useState<ContentKind>('news')
  const [editing, setEditing] = useState<Partial<ContentItem> | null>(null)
  const { data, isPending, isError, refetch } = useContent(kind)
  const remove = useAdminMutation(adminApi.deleteContent)
  const meta = KINDS.find((k) => k.kind === kind)!
  const columns: DataTableColumn<ContentItem>[] = [
    { key: 'position', title: 'ترتیب', width: '70px', render: (it) => toPersianDigits(it.position) },
    { key: 'title', title: 'عنوان' },
    { key: 'body', title: 'متن', hideOnMobile: true, render: (it) => <Text lineClamp={2} maxW="320px">{it.body || '—'}</Text> },
    ...(meta.amount ? [{ key: 'amount', title: 'مبلغ', render: (it: ContentItem) => formatRial(it.amount) }] : []),
    ...(kind === 'charge_package' ? [{ key: 'bonus', title: 'هدیه', render: (it: ContentItem) => formatRial(it.bonus ?? 0) }] : []),
    ...(kind === 'banner' ? [{ key: 'placement', title: 'محل', hideOnMobile: true,
      render: (it: ContentItem) => PLACEMENTS.find((p) => p.value === it.placement)?.label ?? it.placement }] : []),
    { key: 'window', title: 'نمایش', hideOnMobile: true, render: window_ },
    { key: 'active', title: 'وضعیت', render: (it) => <Badge colorPalette={it.active ? 'green' : 'gray'}>{it.active ? 'فعال' : 'غیرفعال'}</Badge> },
    {
      key: 'actions', title: 'اقدام', render: (it) => (
        <HStack gap="1">
          <Button size="xs" variant="outline" onClick={() => setEditing(it)}>ویرایش</Button>
          <Button size="xs" variant="ghost" colorPalette="red" loading={remove.isPending && remove.variables === it.id} onClick={() => remove.mutate(it.id)}>حذف</Button>
        </HStack>
      ),
    },
  ]
  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap">
        <Heading size="lg">محتوای پنل مشتریان</Heading>
        <Button colorPalette="brand" size="sm" onClick={() => setEditing({ kind, active: true, position: 0 })} data-testid="content-new">افزودن</Button>
      </HStack>
      <OldPanelCard />
      <Tabs.Root value={kind} onValueChange={(e) => setKind(e.value as ContentKind)} variant="line">
        <Tabs.List overflowX="auto">
          {KINDS.map((k) => <Tabs.Trigger key={k.kind} value={k.kind} whiteSpace="nowrap">{k.label}</Tabs.Trigger>)}
        </Tabs.List>
      </Tabs.Root>
      <DataTable caption={meta.label} columns={columns} rows={data} total={data?.length} rowKey={(it) => it.id}
        isLoading={isPending} isError={isError} onRetry={() => refetch()} emptyText="موردی ثبت نشده است" />
      {editing && <ContentDialog item={editing} amount={!!meta.amount} onClose={() => setEditing(null)} />}
    </Stack>
  )
}

function ContentDialog({ item, amount, onClose }: { item: Partial<ContentItem>; amount: boolean; onClose: () => void }) {
  const [form, setForm] = useState(item)
  const [price, setPrice] = useState(toPersianDigits(item.amount ?? 0))
  const [bonus, setBonus] = useState(toPersianDigits(item.bonus ?? 0))
  const [order, setOrder] = useState(toPersianDigits(item.position ?? 0))
  const save = useAdminMutation(adminApi.saveContent)
  const err = (f: string) => (save.error instanceof ApiError ? save.error.fieldError(f) : undefined)
  const set = (patch: Partial<ContentItem>) => setForm((f) => ({ ...f, ...patch }))
  const submit = () =>
    save.mutate({
      id: form.id, kind: form.kind ?? 'news', title: form.title ?? '', body: form.body ?? '', link: form.link ?? '',
      amount: Number(toLatinDigits(price)) || 0, bonus: Number(toLatinDigits(bonus)) || 0, position: Number(toLatinDigits(order)) || 0,
      active: !!form.active, starts_at: form.starts_at ?? null, ends_at: form.ends_at ?? null,
      placement: form.placement ?? 'carousel', action: form.action ?? 'new_tab', image: form.image ?? '', image_mobile: form.image_mobile ?? '',
    }, { onSuccess: onClose })
  return (
    <Modal open onClose={onClose} title={item.id ? 'ویرایش محتوا' : 'افزودن محتوا'} closeOnInteractOutside={false}
      footer={
        <HStack gap="2">
          <Button variant="outline" onClick={onClose}>انصراف</Button>
          <Button colorPalette="brand" loading={save.isPending} onClick={submit} data-testid="content-save">ذخیره</Button>
        </HStack>
      }>
      <Stack gap="4">
        <Field.Root required invalid={!!err('title')}>
          <Field.Label>عنوان</Field.Label>
          <Input value={form.title ?? ''} onChange={(e) => set({ title: e.target.value })} maxLength={200} data-testid="content-title" />
          <Field.ErrorText>{err('title')}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!err('body')}>
          <Field.Label>متن</Field.Label>
          <Textarea value={form.body ?? ''} onChange={(e) => set({ body: e.target.value })} maxLength={5000} />
          <Field.ErrorText>{err('body')}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!err('link')}>
          <Field.Label>پیوند (https://… یا مسیر پنل)</Field.Label>
          <Input value={form.link ?? ''} onChange={(e) => set({ link: e.target.value })} dir="ltr" />
          <Field.ErrorText>{err('link')}</Field.ErrorText>
        </Field.Root>
        {form.kind === 'banner' && (
          <>
            <Choice label="محل نمایش" options={PLACEMENTS} value={form.placement ?? 'carousel'} onChange={(v) => set({ placement: v })} />
            <Choice label="رفتار کلیک" options={ACTIONS} value={form.action ?? 'new_tab'} onChange={(v) => set({ action: v })} />
            <Field.Root invalid={!!err('image')}>
              <Field.Label>تصویر بنر (مسیر در همین سامانه، مثل /banners/autumn.svg)</Field.Label>
              <HStack gap="2" w="full" wrap={{ base: 'wrap', md: 'nowrap' }}>
                <Input value={form.image ?? ''} onChange={(e) => set({ image: e.target.value })} dir="ltr" placeholder="دسکتاپ" data-testid="content-image" />
                <Input value={form.image_mobile ?? ''} onChange={(e) => set({ image_mobile: e.target.value })} dir="ltr" placeholder="موبایل (اختیاری)" />
              </HStack>
              <Field.ErrorText>{err('image')}</Field.ErrorText>
            </Field.Root>
          </>
        )}
        {amount && (
          <Field.Root invalid={!!err('amount')}>
            <Field.Label>مبلغ (ریال)</Field.Label>
            <Input value={price} onChange={(e) => setPrice(e.target.value)} dir="ltr" inputMode="numeric" />
            <Field.ErrorText>{err('amount')}</Field.ErrorText>
          </Field.Root>
        )}
        {form.kind === 'charge_package' && (
          <Field.Root>
            <Field.Label>اعتبار هدیه بسته (ریال)</Field.Label>
            <Input value={bonus} onChange={(e) => setBonus(e.target.value)} dir="ltr" inputMode="numeric" data-testid="content-bonus" />
          </Field.Root>
        )}
        <Field.Root>
          <Field.Label>ترتیب نمایش</Field.Label>
          <Input value={order} onChange={(e) => setOrder(e.target.value)} dir="ltr" inputMode="numeric" maxW="32" />
        </Field.Root>
        <Checkbox.Root checked={!!form.active} onCheckedChange={(e) => set({ active: !!e.checked })}>
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>فعال (به مشتریان نمایش داده شود)</Checkbox.Label>
        </Checkbox.Root>
      </Stack>
    </Modal>
  )
}
