import { Alert, Button, Input } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { FormField, FormStack } from '../../components/FormField'
import { MessageEditor } from '../../components/MessageEditor'
import { Modal } from '../../components/Overlays'
import { Select } from '../../components/Select'
import { ServerMessage } from '../../components/ServerMessage'
import { isApiError } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { usePredefinedGroups, useSaveGroup, useSaveMessage, type PredefinedGroup, type PredefinedMessage } from './api'

/** Client-side limits, the same as the server's (pkg/predefined). */
export const TITLE_MAX = 100
export const MSG = { title: 'عنوان را وارد کنید', titleLong: 'عنوان حداکثر ۱۰۰ کاراکتر است', text: 'متن پیام را وارد کنید', group: 'گروه را انتخاب کنید' }

/** The error of a title, or undefined. */
export function titleError(title: string): string | undefined {
  const t = title.trim()
  if (!t) return MSG.title
  if ([...t].length > TITLE_MAX) return MSG.titleLong
  return undefined
}

type Save = ReturnType<typeof useSaveGroup> | ReturnType<typeof useSaveMessage>

const fieldOf = (save: Save, f: string) => (isApiError(save.error) ? save.error.fieldError(f) : undefined)

function OtherError({ save, fields }: { save: Save; fields: string[] }) {
  if (!save.isError || fields.some((f) => fieldOf(save, f))) return null
  return (
    <Alert.Root status="error" rounded="lg">
      <Alert.Indicator />
      <Alert.Description>
        <ServerMessage error={save.error} />
      </Alert.Description>
    </Alert.Root>
  )
}

/** «گروه جدید» or renaming a group. */
export function GroupFormModal({ open, onClose, group }: { open: boolean; onClose: () => void; group?: PredefinedGroup }) {
  return (
    <Modal open={open} onClose={onClose} title={group ? 'ویرایش گروه' : 'گروه جدید'} size="sm" closeOnInteractOutside={false}>
      <GroupForm group={group} onDone={onClose} />
    </Modal>
  )
}

function GroupForm({ group, onDone }: { group?: PredefinedGroup; onDone: () => void }) {
  const [title, setTitle] = useState(group?.title ?? '')
  const [touched, setTouched] = useState(false)
  const save = useSaveGroup()
  const error = titleError(title)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (error) return
    save.mutate({ id: group?.id, title: title.trim() }, {
      onSuccess: () => {
        toaster.create({ type: 'success', title: group ? 'گروه ویرایش شد' : 'گروه ساخته شد' })
        onDone()
      },
    })
  }
  return (
    <FormStack gap="4" onSubmit={submit} noValidate pb="2" data-testid="predefined-group-form">
      <FormField label="عنوان گروه" required error={(touched && error) || fieldOf(save, 'title')}>
        <Input value={title} onChange={(e) => setTitle(e.target.value)} autoFocus data-testid="predefined-group-title" />
      </FormField>
      <OtherError save={save} fields={['title']} />
      <Button type="submit" colorPalette="brand" loading={save.isPending} alignSelf="flex-end" data-testid="predefined-group-save">
        {group ? 'ذخیره' : 'ساخت گروه'}
      </Button>
    </FormStack>
  )
}

interface MessageFormProps {
  open: boolean
  onClose: () => void
  message?: PredefinedMessage
  /** The group a new message goes to first. */
  groupId?: number
}

/** «پیام جدید» or editing one: group, title and the text in the message editor. */
export function MessageFormModal({ open, onClose, message, groupId }: MessageFormProps) {
  return (
    <Modal open={open} onClose={onClose} title={message ? 'ویرایش پیام' : 'پیام جدید'} size="lg" closeOnInteractOutside={false}>
      <MessageForm message={message} groupId={groupId} onDone={onClose} />
    </Modal>
  )
}

function MessageForm({ message, groupId, onDone }: { message?: PredefinedMessage; groupId?: number; onDone: () => void }) {
  const [group, setGroup] = useState<number | null>(message?.group_id ?? groupId ?? null)
  const [title, setTitle] = useState(message?.title ?? '')
  const [text, setText] = useState(message?.text ?? '')
  const [touched, setTouched] = useState(false)
  const groups = usePredefinedGroups({ limit: 100 })
  const save = useSaveMessage()
  const errors = { group: group ? undefined : MSG.group, title: titleError(title), text: text.trim() ? undefined : MSG.text }
  const show = (k: keyof typeof errors, f: string) => (touched && errors[k]) || fieldOf(save, f)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (Object.values(errors).some(Boolean) || !group) return
    save.mutate({ id: message?.id, group_id: group, title: title.trim(), text }, {
      onSuccess: () => {
        toaster.create({ type: 'success', title: message ? 'پیام ویرایش شد' : 'پیام ذخیره شد' })
        onDone()
      },
    })
  }
  const options = (groups.data?.rows ?? []).map((g) => ({ value: g.id, label: toPersianDigits(g.title) }))
  return (
    <FormStack gap="4" onSubmit={submit} noValidate pb="2" data-testid="predefined-message-form">
      <FormField label="گروه" required error={show('group', 'group_id')}>
        <Select<number> value={group} onChange={(v) => setGroup(v)} options={options} isLoading={groups.isPending} aria-label="گروه" searchable />
      </FormField>
      <FormField label="عنوان پیام" required error={show('title', 'title')}>
        <Input value={title} onChange={(e) => setTitle(e.target.value)} data-testid="predefined-message-title" />
      </FormField>
      <div data-testid="predefined-message-text">
        <MessageEditor value={text} onChange={setText} label="متن پیام" showCancel11={false} invalid={!!show('text', 'text')} errorText={show('text', 'text')} rows={5} />
      </div>
      <OtherError save={save} fields={['group_id', 'title', 'text']} />
      <Button type="submit" colorPalette="brand" loading={save.isPending} alignSelf="flex-end" data-testid="predefined-message-save">
        {message ? 'ذخیره' : 'ذخیره پیام'}
      </Button>
    </FormStack>
  )
}
