import { Button, Card, Checkbox, Heading, HStack, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { FormField } from '../../components/FormField'
import { JalaliDateInput } from '../../components/JalaliDateInput'
import { ServerMessage } from '../../components/ServerMessage'
import { ErrorState, LoadingState } from '../../components/States'
import { ApiError } from '../../lib/apiError'
import { toPersianDigits } from '../../lib/digits'
import { usePhonebookOptions } from '../../lib/phonebooks'
import { toaster } from '../../lib/toaster'
import { useReader, useReceiverLines, useSaveReader, type ReaderInput, type ReaderKind } from './api'
import { emptyReader, joinWords, KIND_TITLES, replyLabels, splitWords, variablesOf } from './model'

const KEYWORD_KINDS: ReaderKind[] = ['contest', 'poll', 'feedback', 'gift', 'visit']

function ReplyBox({ label, value, onChange, error, kind, testId }: { label: string; value: string; onChange: (v: string) => void; error?: string; kind: ReaderKind; testId: string }) {
  return (
    <FormField label={label} error={error} helper={`متغیرها: ${variablesOf(kind).map((v) => `{${v}}`).join(' ')}`}>
      <Textarea value={value} onChange={(e) => onChange(e.target.value)} rows={3} data-testid={testId} />
    </FormField>
  )
}

function PollOptions({ value, onChange, error }: { value: ReaderInput['options']; onChange: (o: ReaderInput['options']) => void; error?: string }) {
  const opts = value ?? []
  const set = (i: number, patch: Partial<{ title: string; keywords: string[] }>) => onChange(opts.map((o, j) => (j === i ? { ...o, ...patch } : o)))
  return (
    <FormField label="گزینه‌ها (با شماره یا کلمه کلیدی انتخاب می‌شوند)" error={error}>
      <Stack gap="2" w="full">
        {opts.map((o, i) => (
          <HStack key={i} gap="2" wrap={{ base: 'wrap', md: 'nowrap' }}>
            <Text minW="6">{toPersianDigits(i + 1)}</Text>
            <Input placeholder="عنوان گزینه" value={o.title} onChange={(e) => set(i, { title: e.target.value })} data-testid={`poll-option-${i}`} />
            <Input placeholder="کلمات کلیدی گزینه" value={joinWords(o.keywords)} onChange={(e) => set(i, { keywords: splitWords(e.target.value) })} />
          </HStack>
        ))}
        <Button size="xs" variant="outline" alignSelf="start" onClick={() => onChange([...opts, { title: '', keywords: [] }])} disabled={opts.length >= 20} data-testid="poll-add-option">
          افزودن گزینه
        </Button>
      </Stack>
    </FormField>
  )
}

function KindFields({ form, set, err }: { form: ReaderInput; set: (p: Partial<ReaderInput>) => void; err: (f: string) => string | undefined }) {
  const phonebooks = usePhonebookOptions('')
  return (
    <>
      {form.kind === 'contest' && (
        <FormField label="پاسخ درست" error={err('answer')} required>
          <Input value={form.answer} onChange={(e) => set({ answer: e.target.value })} data-testid="reader-answer" />
        </FormField>
      )}
      {form.kind === 'poll' && (
        <>
          <PollOptions value={form.options} onChange={(options) => set({ options })} error={err('options')} />
          <Checkbox.Root checked={form.changeable} onCheckedChange={(e) => set({ changeable: e.checked === true })} colorPalette="brand">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>هر فرستنده بتواند رأی خود را تغییر دهد</Checkbox.Label>
          </Checkbox.Root>
        </>
      )}
      {form.kind === 'secretary' && (
        <FormField label="افزودن فرستنده به گروه (اختیاری)" error={err('phonebook_id')}>
          <NativeSelect.Root>
            <NativeSelect.Field value={String(form.phonebook_id || '')} onChange={(e) => set({ phonebook_id: Number(e.target.value) || 0 })}>
              <option value="">بدون گروه</option>
              {(phonebooks.data ?? []).map((p) => <option key={p.value} value={p.value}>{p.label}</option>)}
            </NativeSelect.Field>
          </NativeSelect.Root>
        </FormField>
      )}
    </>
  )
}

function ReaderForm({ initial, secretary }: { initial: ReaderInput; secretary: boolean }) {
  const navigate = useNavigate()
  const [form, setForm] = useState(initial)
  const set = (p: Partial<ReaderInput>) => setForm((f) => ({ ...f, ...p }))
  const lines = useReceiverLines()
  const save = useSaveReader()
  useEffect(() => {
    if (!form.line && lines.data?.[0]) set({ line: lines.data[0].number })
  }, [lines.data, form.line])
  const err = (f: string) => (save.error instanceof ApiError ? save.error.fieldError(f) : undefined)
  const labels = replyLabels(form.kind)
  const submit = () =>
    save.mutate(form, {
      onSuccess: (r) => {
        toaster.create({ type: 'success', title: 'ذخیره شد و پس از تایید کارشناس فعال می‌شود' })
        navigate(secretary ? `/secretary/received-message/recipients/${r.id}/all` : `/secretary/keywords/${r.id}`)
      },
    })
  return (
    <Stack gap="4" maxW="3xl">
      {!secretary && !form.id && (
        <FormField label="نوع" required>
          <NativeSelect.Root>
            <NativeSelect.Field value={form.kind} onChange={(e) => setForm({ ...emptyReader(e.target.value as ReaderKind), title: form.title, line: form.line })} data-testid="reader-kind">
              {KEYWORD_KINDS.map((k) => <option key={k} value={k}>{KIND_TITLES[k]}</option>)}
            </NativeSelect.Field>
          </NativeSelect.Root>
        </FormField>
      )}
      <FormField label="عنوان" error={err('title')} required>
        <Input value={form.title} onChange={(e) => set({ title: e.target.value })} data-testid="reader-title" />
      </FormField>
      <FormField label="خط دریافت" error={err('line')} required>
        <NativeSelect.Root>
          <NativeSelect.Field value={form.line} onChange={(e) => set({ line: e.target.value })} data-testid="reader-line">
            {(lines.data ?? []).map((l) => <option key={l.number} value={l.number}>{toPersianDigits(l.number)}</option>)}
          </NativeSelect.Field>
        </NativeSelect.Root>
      </FormField>
      <FormField label="کلمات کلیدی (با ویرگول جدا کنید)" error={err('keywords')} required={!secretary}
        helper={secretary ? 'خالی: پاسخ به همه پیام‌های این خط' : 'پیامی که با یکی از این کلمات شروع شود به این منشی می‌رسد'}>
        <Input defaultValue={joinWords(form.keywords)} onChange={(e) => set({ keywords: splitWords(e.target.value) })} data-testid="reader-keywords" />
      </FormField>
      <KindFields form={form} set={set} err={err} />
      <ReplyBox label={labels.reply} value={form.reply} onChange={(reply) => set({ reply })} error={err('reply')} kind={form.kind} testId="reader-reply" />
      {labels.wrong && <ReplyBox label={labels.wrong} value={form.reply_wrong} onChange={(v) => set({ reply_wrong: v })} error={err('reply_wrong')} kind={form.kind} testId="reader-reply-wrong" />}
      {labels.repeat && <ReplyBox label={labels.repeat} value={form.reply_repeat} onChange={(v) => set({ reply_repeat: v })} error={err('reply_repeat')} kind={form.kind} testId="reader-reply-repeat" />}
      <FormField label="تاریخ پایان (اختیاری)" error={err('expires_at')}>
        <JalaliDateInput value={form.expires_at ? new Date(form.expires_at) : null} onChange={(d) => set({ expires_at: d ? d.toISOString() : null })} disablePast aria-label="تاریخ پایان" />
      </FormField>
      {save.error && !(save.error instanceof ApiError && Object.keys(save.error.errors).length) && <ServerMessage error={save.error} />}
      <HStack>
        <Button colorPalette="brand" onClick={submit} loading={save.isPending} data-testid="reader-save">ذخیره و ارسال برای بررسی</Button>
        <Button variant="ghost" onClick={() => navigate(-1)}>انصراف</Button>
      </HStack>
    </Stack>
  )
}

/** Create (and update/:id) of a secretary or keyword reader. */
export default function ReaderFormPage({ secretary }: { secretary: boolean }) {
  const { id } = useParams()
  const existing = useReader(id)
  let body
  if (id && existing.isPending) body = <LoadingState />
  else if (id && existing.isError) body = <ErrorState description="منشی پیدا نشد" onRetry={() => existing.refetch()} />
  else body = <ReaderForm key={id ?? 'new'} initial={existing.data ?? emptyReader(secretary ? 'secretary' : 'poll')} secretary={secretary} />
  return (
    <Card.Root>
      <Card.Body>
        <Stack gap="4">
          <Heading as="h2" size="md">{id ? (secretary ? 'ویرایش منشی' : 'ویرایش کلیدخوان') : secretary ? 'ایجاد منشی پیام دریافتی' : 'ایجاد کلیدخوان'}</Heading>
          {body}
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}
