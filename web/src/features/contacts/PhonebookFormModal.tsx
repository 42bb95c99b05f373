import { Button, Input } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { Modal } from '../../components/Overlays'
import { isApiError } from '../../lib/api'
import { FormField, FormStack } from '../../components/FormField'
import { useCreatePhonebook, useRenamePhonebook, type Phonebook } from './api'
import { MESSAGES, PHONEBOOK_NAME_MAX } from './model'
import { ErrorAlert, toastSuccess } from './ui'

/** Create a phonebook («گروه جدید») or rename one. */
export function PhonebookFormModal({ open, onClose, phonebook, onCreated }: {
  open: boolean
  onClose: () => void
  phonebook?: Phonebook
  onCreated?: (p: Phonebook) => void
}) {
  return (
    <Modal open={open} onClose={onClose} title={phonebook ? 'تغییر نام گروه' : 'گروه جدید'} size="sm" closeOnInteractOutside={false}>
      <PhonebookForm phonebook={phonebook} onDone={onClose} onCreated={onCreated} />
    </Modal>
  )
}

function PhonebookForm({ phonebook, onDone, onCreated }: { phonebook?: Phonebook; onDone: () => void; onCreated?: (p: Phonebook) => void }) {
  const [name, setName] = useState(phonebook?.name ?? '')
  const [code, setCode] = useState('')
  const [touched, setTouched] = useState(false)
  const create = useCreatePhonebook()
  const rename = useRenamePhonebook()
  const save = phonebook ? rename : create
  const trimmed = name.trim()
  const nameError = !trimmed ? MESSAGES.required : [...trimmed].length > PHONEBOOK_NAME_MAX ? MESSAGES.nameTooLong : undefined
  const serverError = (f: string) => (isApiError(save.error) ? save.error.fieldError(f) : undefined)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (nameError) return
    if (phonebook) {
      rename.mutate({ id: phonebook.id, name: trimmed }, { onSuccess: () => { toastSuccess('نام گروه تغییر کرد'); onDone() } })
    } else {
      create.mutate(
        { name: trimmed, ...(code.trim() ? { code: code.trim() } : {}) },
        { onSuccess: (p) => { toastSuccess('گروه ساخته شد'); onCreated?.(p); onDone() } },
      )
    }
  }

  return (
    <FormStack gap="4" onSubmit={submit} noValidate pb="2" data-testid="phonebook-form">
      <FormField label="نام گروه" required error={(touched && nameError) || serverError('name')}>
        <Input value={name} maxLength={PHONEBOOK_NAME_MAX} onChange={(e) => setName(e.target.value)} autoFocus data-testid="phonebook-name" />
      </FormField>
      {!phonebook && (
        <FormField label="کد گروه" helper="اختیاری؛ اگر خالی بماند خودکار ساخته می‌شود" error={serverError('code')}>
          <Input value={code} dir="ltr" textAlign="end" onChange={(e) => setCode(e.target.value)} />
        </FormField>
      )}
      {save.isError && !serverError('name') && !serverError('code') && (
        <ErrorAlert error={save.error} />
      )}
      <Button type="submit" colorPalette="brand" loading={save.isPending} alignSelf="flex-end" data-testid="phonebook-save">
        {phonebook ? 'ذخیره' : 'ساخت گروه'}
      </Button>
    </FormStack>
  )
}
