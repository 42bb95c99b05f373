import { Button, Field, HStack, Input, RadioGroup, SimpleGrid, Stack, Switch, Wrap } from '@chakra-ui/react'
import { useId, useState } from 'react'
import { ADVERTISING_CANCEL11_REASON, MessageEditor } from '../../components/MessageEditor'
import { NumberEntry } from '../../components/NumberEntry'
import { SideModal } from '../../components/Overlays'
import { Select } from '../../components/Select'
import type { SelectOption } from '../../components/selectUtils'
import { TimePicker } from '../../components/TimePicker'
import { GradualField } from '../../components/GradualField'
import { toPersianDigits } from '../../lib/digits'
import { JALALI_WEEKDAYS } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { ServerMessage } from '../../components/ServerMessage'
import { useSenderLines } from '../../lib/lines'
import { PhonebookPicker } from '../../components/PhonebookPicker'
import { FileUpload } from '../../components/FileUpload'
import { useUserFile } from '../../lib/files'
import { columnKeywords } from '../../lib/keywords'
import { LINE_KIND } from '../../components/SenderPicker'
import { useSaveCampaign, type Campaign } from './api'
import { Labeled } from './ui'
import { allows, useAcl } from '../../lib/acl'
import {
  campaignErrors, campaignInput, EMPTY_CAMPAIGN, formFromCampaign, SCHEDULE_KINDS, SOURCE_KINDS, toggled,
  type CampaignForm,
} from './form'

function Choices<V extends string>({ value, options, onChange, testId }: { value: V; options: Array<{ value: V; label: string }>; onChange: (v: V) => void; testId: string }) {
  return (
    <RadioGroup.Root value={value} onValueChange={(e) => onChange(e.value as V)} colorPalette="brand" size="sm">
      <Wrap gap="4">
        {options.map((o) => (
          <RadioGroup.Item key={o.value} value={o.value} data-testid={`${testId}-${o.value}`}>
            <RadioGroup.ItemHiddenInput />
            <RadioGroup.ItemIndicator />
            <RadioGroup.ItemText>{o.label}</RadioGroup.ItemText>
          </RadioGroup.Item>
        ))}
      </Wrap>
    </RadioGroup.Root>
  )
}

/** Toggle chips for week or month days; a grid of `columns` when given. */
function DayChips({ items, value, onChange, columns }: { items: Array<{ value: number; label: string }>; value: number[]; onChange: (v: number[]) => void; columns?: number }) {
  const chips = items.map((d) => {
    const on = value.includes(d.value)
    return (
      <Button key={d.value} size="xs" minW="9" variant={on ? 'solid' : 'outline'} colorPalette={on ? 'brand' : 'gray'} aria-pressed={on} onClick={() => onChange(toggled(value, d.value))}>
        {d.label}
      </Button>
    )
  })
  return columns ? <SimpleGrid columns={columns} gap="1.5" maxW="sm">{chips}</SimpleGrid> : <Wrap gap="1.5">{chips}</Wrap>
}

/** A campaign's runs are paced by a count (an end time would be one day's). */
const CAMPAIGN_GRADUAL_MODES = ['off', 'per_hour', 'per_minute'] as const
const CAMPAIGN_GRADUAL_NOTE = 'گیرندگان هر اجرا به‌تدریج و فقط در ساعت مجاز ارسال فرستاده می‌شوند.'

const WEEKDAY_ITEMS = JALALI_WEEKDAYS.map((label, value) => ({ value, label }))
const MONTH_DAY_ITEMS = Array.from({ length: 31 }, (_, i) => ({ value: i + 1, label: toPersianDigits(i + 1) }))

/** Create or edit a recurring campaign in a side modal. */
export function CampaignFormModal({ campaign, onClose }: { campaign: Campaign | null; onClose: () => void }) {
  // «درج متن آماده» reads the predefined messages: only for roles that may.
  const canInsert = allows(useAcl().data, 'predefined.view')
  const id = useId()
  const [form, setForm] = useState<CampaignForm>(() => (campaign ? formFromCampaign(campaign) : EMPTY_CAMPAIGN))
  const [cancel11Touched, setCancel11Touched] = useState(!!campaign)
  const [books, setBooks] = useState<SelectOption<number>[]>([])
  const [tried, setTried] = useState(false)
  const lines = useSenderLines()
  const file = useUserFile(form.sourceKind === 'file' ? form.fileId : null).data
  const save = useSaveCampaign()
  const patch = (p: Partial<CampaignForm>) => setForm((f) => ({ ...f, ...p }))
  const errors = tried ? campaignErrors(form) : {}

  const advertisingLine = lines.data?.find((l) => l.number === form.sender)?.kind === 'advertising'
  const lineOptions = (lines.data ?? []).map((l) => ({ value: l.number, label: `${toPersianDigits(l.number)} (${LINE_KIND[l.kind] ?? l.kind})` }))
  const submit = () => {
    setTried(true)
    if (Object.keys(campaignErrors(form)).length) return
    save.mutate(
      { id: campaign?.id, input: campaignInput(form) },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: campaign ? 'کمپین ویرایش شد' : 'کمپین ساخته شد' })
          onClose()
        },
      },
    )
  }

  return (
    <SideModal
      open
      onClose={onClose}
      size="lg"
      title={campaign ? 'ویرایش کمپین' : 'کمپین تکرارشونده جدید'}
      closeOnInteractOutside={false}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            انصراف
          </Button>
          <Button colorPalette="brand" onClick={submit} loading={save.isPending} data-testid="campaign-save">
            {campaign ? 'ذخیره تغییرات' : 'ساخت کمپین'}
          </Button>
        </>
      }
    >
      <Stack gap="6" pb="4" data-testid="campaign-form">
        <Field.Root invalid={!!errors.title}>
          <Field.Label>عنوان کمپین</Field.Label>
          <Input value={form.title} onChange={(e) => patch({ title: e.target.value })} maxLength={100} placeholder="مثلا یادآوری ماهانه اقساط" data-testid="campaign-title" />
          <Field.ErrorText>{errors.title}</Field.ErrorText>
        </Field.Root>

        <Labeled label="خط ارسال" error={errors.sender}>
          <Select
            id={`${id}-sender`}
            aria-label="خط ارسال"
            options={lineOptions}
            value={form.sender || null}
            isLoading={lines.isPending}
            invalid={!!errors.sender}
            onChange={(v) => {
              const line = lines.data?.find((l) => l.number === v)
              const advertising = line?.kind === 'advertising'
              // An advertising line always carries «لغو۱۱»; a service line keeps the user's choice.
              patch({ sender: v ?? '', ...(line && (advertising || !cancel11Touched) ? { cancel11: advertising } : {}) })
            }}
          />
        </Labeled>

        <Labeled label="گیرندگان" error={form.sourceKind === 'phonebooks' ? undefined : errors.source}>
          <Choices value={form.sourceKind} options={SOURCE_KINDS} onChange={(sourceKind) => patch({ sourceKind })} testId="campaign-source" />
          {form.sourceKind === 'numbers' && (
            <NumberEntry value={form.numbers} onChange={(numbers) => patch({ numbers })} label="شماره‌های گیرنده" validateMobile />
          )}
          {form.sourceKind === 'phonebooks' && (
            <PhonebookPicker
              value={form.phonebookIds}
              selected={books}
              onChange={(ids, options) => {
                patch({ phonebookIds: ids })
                setBooks(options)
              }}
              error={errors.source}
            />
          )}
          {form.sourceKind === 'file' && <FileUpload purpose="send" sample="keyword" fileId={form.fileId} onFileId={(fileId) => patch({ fileId })} />}
        </Labeled>

        <MessageEditor
          value={form.text}
          onChange={(text) => patch({ text })}
          keywords={form.sourceKind === 'file' && file?.status === 'ready' ? columnKeywords(file.columns) : []}
          predefined={canInsert}
          cancel11={form.cancel11}
          onCancel11Change={
            advertisingLine
              ? undefined
              : (cancel11) => {
                  setCancel11Touched(true)
                  patch({ cancel11 })
                }
          }
          cancel11LockedReason={advertisingLine ? ADVERTISING_CANCEL11_REASON : undefined}
          invalid={!!errors.text}
          errorText={errors.text}
          rows={4}
        />

        <Labeled label="تکرار" helper="زمان‌ها به وقت تهران و روزهای ماه به تقویم شمسی است.">
          <Choices value={form.kind} options={SCHEDULE_KINDS} onChange={(kind) => patch({ kind })} testId="campaign-kind" />
        </Labeled>
        {form.kind === 'weekly' && (
          <Labeled label="روزهای هفته" error={errors.weekdays}>
            <DayChips items={WEEKDAY_ITEMS} value={form.weekdays} onChange={(weekdays) => patch({ weekdays })} />
          </Labeled>
        )}
        {form.kind === 'monthly' && (
          <Labeled label="روزهای ماه" error={errors.monthDays} helper="در ماه‌هایی که روز انتخاب‌شده را ندارند (مثلا ۳۱ مهر) ارسالی انجام نمی‌شود.">
            <DayChips items={MONTH_DAY_ITEMS} value={form.monthDays} onChange={(monthDays) => patch({ monthDays })} columns={7} />
          </Labeled>
        )}
        {form.kind === 'cron' ? (
          <Labeled label="عبارت کرون" error={errors.cron} helper="دقیقه ساعت روز‌ماه ماه روز‌هفته (۰ = یکشنبه)؛ مثلا «0 9 * * 6,0-3» (به وقت تهران و تقویم میلادی)">
            <Input dir="ltr" fontFamily="mono" value={form.cron} onChange={(e) => patch({ cron: e.target.value })} placeholder="0 9 * * *" data-testid="campaign-cron" />
          </Labeled>
        ) : (
          <Labeled label="ساعت ارسال" error={errors.time}>
            <HStack>
              <TimePicker value={form.time} onChange={(time) => patch({ time })} aria-label="ساعت ارسال" />
            </HStack>
          </Labeled>
        )}

        <GradualField value={form} onChange={patch} error={errors.gradual} modes={CAMPAIGN_GRADUAL_MODES} note={CAMPAIGN_GRADUAL_NOTE} />

        <Switch.Root colorPalette="brand" checked={form.enabled} onCheckedChange={(e) => patch({ enabled: e.checked })}>
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>کمپین فعال باشد</Switch.Label>
        </Switch.Root>
        {save.isError && <ServerMessage error={save.error} color="fg.error" fontSize="sm" />}
      </Stack>
    </SideModal>
  )
}
