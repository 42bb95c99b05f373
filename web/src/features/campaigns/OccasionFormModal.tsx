import { Box, Button, Field, HStack, Input, SimpleGrid, Skeleton, Stack, Switch, Text } from '@chakra-ui/react'
import { useId, useState } from 'react'
import { ADVERTISING_CANCEL11_REASON, MessageEditor } from '../../components/MessageEditor'
import { SideModal } from '../../components/Overlays'
import { Select } from '../../components/Select'
import type { SelectOption } from '../../components/selectUtils'
import { TimePicker } from '../../components/TimePicker'
import { PhonebookPicker } from '../../components/PhonebookPicker'
import { PreviewRows } from '../../components/PreviewRows'
import { ServerMessage } from '../../components/ServerMessage'
import { useDebouncedValue } from '../../components/hooks'
import { LINE_KIND } from '../../components/SenderPicker'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber, formatRial } from '../../lib/format'
import { toaster } from '../../lib/toaster'
import { useSenderLines } from '../../lib/lines'
import { usePhonebookOptions } from '../../lib/phonebooks'
import { hasContactTags, useContactTags, useDateFields } from '../../lib/contactTags'
import { allows, useAcl } from '../../lib/acl'
import { useOccasionQuote, useOccasionUpcoming, useSaveCampaign, type Campaign, type OccasionDay } from './api'
import {
  daysBeforeLabel, EMPTY_OCCASION, formFromOccasion, jalaliDayName, MAX_DAYS_BEFORE, occasionErrors, occasionInput, occasionOf,
  type OccasionForm,
} from './occasionForm'
import { Labeled } from './ui'

const DAYS_BEFORE = Array.from({ length: MAX_DAYS_BEFORE + 1 }, (_, n) => ({ value: n, label: daysBeforeLabel(n) }))

/** The next seven days: how many contacts have the occasion on each. */
function WeekCounts({ days }: { days: OccasionDay[] }) {
  return (
    <SimpleGrid columns={{ base: 4, md: 7 }} gap="1.5" data-testid="occasion-week">
      {days.map((d, i) => (
        <Stack key={d.on} gap="0" align="center" p="1.5" rounded="md" borderWidth="1px" borderColor={d.contacts ? 'brand.muted' : 'app.border'}
          bg={d.contacts ? 'brand.subtle' : undefined}>
          <Text fontSize="2xs" color="app.muted">{i === 0 ? 'امروز' : jalaliDayName(d.jalali, false)}</Text>
          <Text fontWeight="semibold" fontSize="sm">{formatNumber(d.contacts)}</Text>
        </Stack>
      ))}
    </SimpleGrid>
  )
}

/** Who the occasion reaches: the week's counts, then the next occasion day's price and first personalised texts. */
function OccasionPreview({ form }: { form: OccasionForm }) {
  const upcoming = useOccasionUpcoming(form.phonebookIds, form.field ? occasionOf(form) : null)
  const text = useDebouncedValue(form.text, 500)
  const next = upcoming.data?.next ?? null
  const quote = useOccasionQuote(next && text.trim() ? {
    type: 'phonebook', phonebook_ids: form.phonebookIds, sender: form.sender, text, cancel11: form.cancel11,
    occasion: { ...occasionOf(form), on: next.on },
  } : null)
  if (!form.phonebookIds.length) return <Text fontSize="sm" color="app.muted">برای دیدن مخاطبان مناسبت، دفترچه تلفن را انتخاب کنید.</Text>
  if (upcoming.isPending) return <Skeleton h="16" rounded="lg" />
  if (upcoming.isError) return <ServerMessage error={upcoming.error} color="fg.error" fontSize="sm" />
  const week = upcoming.data.days.reduce((n, d) => n + d.contacts, 0)
  return (
    <Stack gap="3" data-testid="occasion-preview">
      <Text fontSize="sm">{`مخاطبان دارای مناسبت در ۷ روز آینده: ${formatNumber(week)}`}</Text>
      <WeekCounts days={upcoming.data.days} />
      {!next ? (
        <Text fontSize="sm" color="app.muted">در یک سال آینده هیچ مخاطبی از این دفترچه‌ها این مناسبت را ندارد.</Text>
      ) : (
        <Stack gap="2">
          <Text fontSize="sm" fontWeight="medium" data-testid="occasion-next">
            {`نزدیک‌ترین ارسال: ${jalaliDayName(next.jalali)} به ${formatNumber(next.contacts)} مخاطب`}
            {form.daysBefore > 0 && ` (مناسبت: ${jalaliDayName(next.occasion, false)})`}
          </Text>
          {quote.isError && <ServerMessage error={quote.error} color="fg.error" fontSize="sm" />}
          {quote.data && (
            <Text fontSize="sm" color="app.muted" data-testid="occasion-price">
              {`هزینه آن روز: ${formatRial(quote.data.price)} برای ${formatNumber(quote.data.recipients)} گیرنده`}
            </Text>
          )}
          {quote.data && (hasContactTags(text) ? <PreviewRows quote={quote.data} cancel11={form.cancel11} /> : (
            <Box bg="brand.subtle" borderWidth="1px" borderColor="brand.muted" px="3" py="2" rounded="xl" whiteSpace="pre-wrap" data-testid="preview-text">
              {text}
            </Box>
          ))}
        </Stack>
      )}
    </Stack>
  )
}

/** Create or edit an occasion message («پیام مناسبتی») in a side modal. */
export function OccasionFormModal({ campaign, onClose }: { campaign: Campaign | null; onClose: () => void }) {
  const canInsert = allows(useAcl().data, 'predefined.view')
  const id = useId()
  const [form, setForm] = useState<OccasionForm>(() => (campaign ? formFromOccasion(campaign) : EMPTY_OCCASION))
  const [picked, setBooks] = useState<SelectOption<number>[] | null>(null)
  const [cancel11Touched, setCancel11Touched] = useState(!!campaign)
  const [tried, setTried] = useState(false)
  const lines = useSenderLines()
  const tags = useContactTags()
  const fields = useDateFields()
  const options = usePhonebookOptions('')
  const books = picked ?? (options.data ?? []).filter((o) => form.phonebookIds.includes(Number(o.value)))
  const save = useSaveCampaign()
  const patch = (p: Partial<OccasionForm>) => setForm((f) => ({ ...f, ...p }))
  const errors = tried ? occasionErrors(form, tags.data) : {}
  const advertisingLine = lines.data?.find((l) => l.number === form.sender)?.kind === 'advertising'
  const lineOptions = (lines.data ?? []).map((l) => ({ value: l.number, label: `${toPersianDigits(l.number)} (${LINE_KIND[l.kind] ?? l.kind})` }))
  const submit = () => {
    setTried(true)
    if (Object.keys(occasionErrors(form, tags.data)).length) return
    save.mutate({ id: campaign?.id, input: occasionInput(form) }, {
      onSuccess: () => {
        toaster.create({ type: 'success', title: campaign ? 'پیام مناسبتی ویرایش شد' : 'پیام مناسبتی ساخته شد' })
        onClose()
      },
    })
  }

  return (
    <SideModal open onClose={onClose} size="lg" title={campaign ? 'ویرایش پیام مناسبتی' : 'پیام مناسبتی جدید'} closeOnInteractOutside={false}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>انصراف</Button>
          <Button colorPalette="brand" onClick={submit} loading={save.isPending} data-testid="occasion-save">
            {campaign ? 'ذخیره تغییرات' : 'ساخت پیام مناسبتی'}
          </Button>
        </>
      }
    >
      <Stack gap="6" pb="4" data-testid="occasion-form">
        <Field.Root invalid={!!errors.title}>
          <Field.Label>عنوان</Field.Label>
          <Input value={form.title} onChange={(e) => patch({ title: e.target.value })} maxLength={100} placeholder="مثلا تبریک تولد مشتریان" data-testid="occasion-title" />
          <Field.ErrorText>{errors.title}</Field.ErrorText>
        </Field.Root>

        <PhonebookPicker value={form.phonebookIds} selected={books} error={errors.phonebooks}
          onChange={(phonebookIds, opts) => { patch({ phonebookIds }); setBooks(opts) }} />

        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          <Labeled label="تاریخ مناسبت" error={errors.field} helper="ماه و روز شمسی این تاریخ هر سال جشن گرفته می‌شود.">
            <Select id={`${id}-field`} aria-label="تاریخ مناسبت" options={fields.data ?? []} value={form.field || null}
              isLoading={fields.isPending} invalid={!!errors.field} onChange={(v) => patch({ field: v ?? '' })} />
          </Labeled>
          <Labeled label="زمان ارسال" error={errors.daysBefore}>
            <Select id={`${id}-before`} aria-label="زمان ارسال نسبت به مناسبت" options={DAYS_BEFORE} value={form.daysBefore}
              onChange={(v) => patch({ daysBefore: v ?? 0 })} />
          </Labeled>
          <Labeled label="ساعت ارسال" error={errors.time} helper="هر روز در این ساعت به وقت تهران.">
            <HStack>
              <TimePicker value={form.time} onChange={(time) => patch({ time })} aria-label="ساعت ارسال" />
            </HStack>
          </Labeled>
          <Labeled label="خط ارسال" error={errors.sender}>
            <Select id={`${id}-sender`} aria-label="خط ارسال" options={lineOptions} value={form.sender || null} isLoading={lines.isPending}
              invalid={!!errors.sender}
              onChange={(v) => {
                const line = lines.data?.find((l) => l.number === v)
                const advertising = line?.kind === 'advertising'
                patch({ sender: v ?? '', ...(line && (advertising || !cancel11Touched) ? { cancel11: advertising } : {}) })
              }} />
          </Labeled>
        </SimpleGrid>

        <Stack gap="2">
          <MessageEditor
            value={form.text}
            onChange={(text) => patch({ text })}
            keywords={(tags.data ?? []).map((t) => ({ keyword: t.keyword, col: '' }))}
            predefined={canInsert}
            cancel11={form.cancel11}
            onCancel11Change={advertisingLine ? undefined : (cancel11) => { setCancel11Touched(true); patch({ cancel11 }) }}
            cancel11LockedReason={advertisingLine ? ADVERTISING_CANCEL11_REASON : undefined}
            invalid={!!errors.text}
            errorText={errors.text}
            rows={4}
          />
          <Text fontSize="xs" color="app.muted" data-testid="contact-tags-help">
            {`برچسب‌ها با اطلاعات هر مخاطب پر می‌شوند: ${(tags.data ?? []).map((t) => `{${t.keyword}} ${t.label}`).join('، ')}`}
          </Text>
        </Stack>

        <Stack gap="2" p="4" rounded="lg" borderWidth="1px" borderColor="app.border" bg="app.raised">
          <Text fontWeight="semibold" fontSize="sm">پیش‌نمایش</Text>
          <OccasionPreview form={form} />
        </Stack>

        <Switch.Root colorPalette="brand" checked={form.enabled} onCheckedChange={(e) => patch({ enabled: e.checked })}>
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>پیام مناسبتی فعال باشد</Switch.Label>
        </Switch.Root>
        {save.isError && <ServerMessage error={save.error} color="fg.error" fontSize="sm" />}
      </Stack>
    </SideModal>
  )
}
