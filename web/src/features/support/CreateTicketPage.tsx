import { Button, Input, Stack, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { FormField, FormStack } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { Select } from '../../components/Select'
import { ServerMessage } from '../../components/ServerMessage'
import { ApiError } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { useCategories, useCreateTicket, type TicketKind } from './api'
import { detailsPath } from './logic'
import { AttachmentPicker, UploadProgress } from './parts'
import { TicketDraftBox } from './TicketDraftBox'

/** /support/create-ticket and /support/create-suggestion-request: a new request with attachments. */
export default function CreateTicketPage({ kind }: { kind: TicketKind }) {
  const navigate = useNavigate()
  const [category, setCategory] = useState<number | null>(null)
  const [sub, setSub] = useState<number | null>(null)
  const [title, setTitle] = useState('')
  const [text, setText] = useState('')
  const [files, setFiles] = useState<File[]>([])
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null)
  const cats = useCategories()
  const subs = useCategories(category)
  const create = useCreateTicket((loaded, total) => setProgress({ loaded, total }))
  const err = create.error instanceof ApiError ? create.error : null
  const suggestion = kind === 'suggestion'
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    create.mutate(
      { kind, category_id: category, sub_category_id: sub, title, text, files },
      {
        onSuccess: (d) => {
          toaster.create({ type: 'success', title: `درخواست شماره ${toPersianDigits(d.number)} ثبت شد` })
          navigate(detailsPath(d))
        },
        onSettled: () => setProgress(null),
      },
    )
  }
  return (
    <SectionCard
      title={suggestion ? 'ثبت پیشنهاد' : 'ثبت تیکت پشتیبانی'}
      description={suggestion ? 'پیشنهاد یا انتقاد خود را برای بهتر شدن چاپار بنویسید.' : 'مشکل را با جزئیات بنویسید؛ کارشناسان ما در سریع‌ترین زمان پاسخ می‌دهند.'}
      maxW="3xl"
    >
      <FormStack gap="4" onSubmit={submit} noValidate>
        {!suggestion && (
          <TicketDraftBox
            onDraft={(d) => {
              setCategory(d.category_id || null)
              setSub(d.sub_category_id || null)
              setTitle(d.title)
              setText(d.text)
            }}
          />
        )}
        <Stack direction={{ base: 'column', md: 'row' }} gap="4">
          <FormField label="دسته‌بندی" required={!suggestion} error={err?.fieldError('category_id')}>
            <Select
              options={(cats.data ?? []).map((c) => ({ value: c.id, label: c.title }))}
              value={category}
              onChange={(v) => {
                setCategory(v)
                setSub(null)
              }}
              placeholder="انتخاب دسته‌بندی"
              aria-label="دسته‌بندی"
            />
          </FormField>
          <FormField label="زیرمجموعه" error={err?.fieldError('sub_category_id')}>
            <Select
              options={(category ? subs.data ?? [] : []).map((c) => ({ value: c.id, label: c.title }))}
              value={sub}
              onChange={setSub}
              placeholder="انتخاب زیرمجموعه"
              disabled={!category}
              aria-label="زیرمجموعه"
            />
          </FormField>
        </Stack>
        <FormField label="عنوان" required error={err?.fieldError('title')}>
          <Input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={150} data-testid="ticket-title" />
        </FormField>
        <FormField label="متن درخواست" required error={err?.fieldError('text')}>
          <Textarea value={text} onChange={(e) => setText(e.target.value)} rows={6} maxLength={5000} data-testid="ticket-text" />
        </FormField>
        <FormField label="پیوست‌ها" error={err?.fieldError('attachments')}>
          <AttachmentPicker files={files} onChange={setFiles} />
        </FormField>
        <UploadProgress progress={progress} />
        {err && !Object.keys(err.errors).length && <ServerMessage error={err} color="fg.error" />}
        <Button type="submit" colorPalette="brand" loading={create.isPending} alignSelf="flex-start" data-testid="ticket-submit">
          ثبت درخواست
        </Button>
      </FormStack>
    </SectionCard>
  )
}
