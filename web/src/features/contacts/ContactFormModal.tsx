import { Button, HStack, Input, RadioGroup } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { JalaliDateInput } from '../../components/JalaliDateInput'
import { SideModal } from '../../components/Overlays'
import { fromDateParam, toDateParam } from '../../components/dateMask'
import { isApiError } from '../../lib/api'
import { onlyDigits, toLatinDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { FormField, FormStack } from '../../components/FormField'
import { useAllFeatures, useSaveContact } from './api'
import {
  contactErrors, contactInput, contactToForm, EMPTY_CONTACT, featuresFor, GENDER_LABELS,
  type Contact, type ContactErrors, type ContactForm, type Feature, type Gender,
} from './model'
import { GroupMultiSelect, GroupSelect, TagPicker } from './pickers'
import { ErrorAlert, toastSuccess } from './ui'

interface Props {
  open: boolean
  onClose: () => void
  /** The contact to edit; a new contact otherwise. */
  contact?: Contact
  /** Pre-chosen phonebook of a new contact. */
  defaultGroup?: number
}

/** Add or edit a contact in a side modal (spec §3 Contact). */
export function ContactFormModal({ open, onClose, contact, defaultGroup }: Props) {
  return (
    <SideModal
      open={open}
      onClose={onClose}
      title={contact ? 'ویرایش مخاطب' : 'افزودن مخاطب'}
      size="md"
      closeOnInteractOutside={false}
    >
      <ContactFormBody contact={contact} defaultGroup={defaultGroup} onDone={onClose} />
    </SideModal>
  )
}

function serverFieldError(err: unknown, field: string): string | undefined {
  if (!isApiError(err)) return undefined
  return err.fieldError(field) ?? err.fieldError(`contacts.0.${field}`)
}

function FeatureInput({ feature, value, onChange, error }: { feature: Feature; value: string; onChange: (v: string) => void; error?: string }) {
  const id = `feature-${feature.title_en}`
  const label = `${feature.title_fa}`
  return (
    <FormField label={label} error={error}>
      {feature.type === 'date' ? (
        <JalaliDateInput id={id} aria-label={label} value={fromDateParam(value)} onChange={(d) => onChange(d ? toDateParam(d) : '')} invalid={!!error} />
      ) : (
        <Input
          id={id}
          value={value}
          inputMode={feature.type === 'integer' ? 'numeric' : undefined}
          dir={feature.type === 'integer' ? 'ltr' : undefined}
          textAlign={feature.type === 'integer' ? 'end' : undefined}
          onChange={(e) => onChange(feature.type === 'integer' ? toLatinDigits(e.target.value).replace(/[^0-9-]/g, '') : e.target.value)}
          onBlur={(e) => onChange(e.target.value.trim())}
          data-testid={id}
        />
      )}
    </FormField>
  )
}

function ContactFormBody({ contact, defaultGroup, onDone }: { contact?: Contact; defaultGroup?: number; onDone: () => void }) {
  const isNew = !contact
  const [form, setForm] = useState<ContactForm>(() =>
    contact ? contactToForm(contact) : { ...EMPTY_CONTACT, groups: defaultGroup ? [defaultGroup] : [] },
  )
  const [showErrors, setShowErrors] = useState(false)
  const featuresQuery = useAllFeatures()
  const features = featuresFor(featuresQuery.data, 'contacts')
  const save = useSaveContact()
  const patch = (p: Partial<ContactForm>) => setForm((f) => ({ ...f, ...p }))
  const errors: ContactErrors = showErrors ? contactErrors(form, features, isNew) : {}
  const fieldError = (field: string) => errors[field] ?? serverFieldError(save.error, field)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (Object.keys(contactErrors(form, features, isNew)).length) return setShowErrors(true)
    const input = contactInput(form, features, !isNew)
    save.mutate(
      { id: contact?.id, groups: form.groups, input },
      {
        onSuccess: (r) => {
          if ('failed' in r && r.failed?.length) {
            toastSuccess(`مخاطب به ${formatNumber(r.added)} گروه افزوده شد`, 'در برخی گروه‌ها این شماره از قبل وجود داشت.')
          } else toastSuccess(isNew ? 'مخاطب افزوده شد' : 'تغییرات ذخیره شد')
          onDone()
        },
      },
    )
  }

  return (
    <FormStack gap="4" onSubmit={submit} noValidate data-testid="contact-form">
      <FormField label="شماره موبایل" required error={fieldError('number')}>
        <Input
          type="tel"
          dir="ltr"
          textAlign="end"
          inputMode="numeric"
          maxLength={14}
          placeholder="۰۹۱۲۱۲۳۴۵۶۷"
          value={form.number}
          onChange={(e) => patch({ number: onlyDigits(e.target.value) })}
          data-testid="contact-number"
        />
      </FormField>
      <FormField label="نام" error={fieldError('name')}>
        <Input value={form.name} onChange={(e) => patch({ name: e.target.value })} onBlur={(e) => patch({ name: e.target.value.trim() })} data-testid="contact-name" />
      </FormField>
      <FormField label="جنسیت" error={fieldError('gender')}>
        <RadioGroup.Root value={form.gender || 'none'} onValueChange={(e) => patch({ gender: (e.value === 'none' ? '' : e.value) as Gender })} colorPalette="brand" size="sm">
          <HStack gap="5">
            {(['male', 'female', 'none'] as const).map((g) => (
              <RadioGroup.Item key={g} value={g}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{GENDER_LABELS[g === 'none' ? '' : g]}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </HStack>
        </RadioGroup.Root>
      </FormField>
      <FormField label="تاریخ تولد" error={fieldError('birth_date')}>
        <JalaliDateInput aria-label="تاریخ تولد" value={fromDateParam(form.birth_date)} max={new Date()} onChange={(d) => patch({ birth_date: d ? toDateParam(d) : '' })} />
      </FormField>
      {isNew ? (
        <FormField label="گروه‌ها" required error={fieldError('groups') ?? serverFieldError(save.error, 'phonebook_id')} helper="مخاطب به هر گروه انتخاب‌شده افزوده می‌شود">
          <GroupMultiSelect
            aria-label="گروه‌ها"
            value={form.groups.map(String)}
            onChange={(v) => patch({ groups: v.map(Number) })}
            invalid={!!errors.groups}
          />
        </FormField>
      ) : (
        <FormField label="گروه" required error={serverFieldError(save.error, 'phonebook_id')} helper="با تغییر گروه، مخاطب به گروه جدید منتقل می‌شود">
          <GroupSelect
            aria-label="گروه"
            value={String(form.groups[0] ?? contact.phonebook_id)}
            known={[{ value: String(contact.phonebook_id), label: contact.phonebook_name }]}
            onChange={(v) => v && patch({ groups: [Number(v)] })}
          />
        </FormField>
      )}
      <FormField label="برچسب‌ها" error={fieldError('tags')}>
        <TagPicker value={form.tags} onChange={(tags) => patch({ tags })} />
      </FormField>
      {features.map((f) => (
        <FeatureInput
          key={f.id}
          feature={f}
          value={form.features[f.title_en] ?? ''}
          onChange={(v) => setForm((s) => ({ ...s, features: { ...s.features, [f.title_en]: v } }))}
          error={fieldError(`features.${f.title_en}`)}
        />
      ))}
      {save.isError && (
        <ErrorAlert error={save.error} />
      )}
      <HStack justify="flex-end" gap="2" pt="2">
        <Button variant="ghost" onClick={onDone}>
          انصراف
        </Button>
        <Button type="submit" colorPalette="brand" loading={save.isPending} data-testid="contact-save">
          {isNew ? 'افزودن مخاطب' : 'ذخیره تغییرات'}
        </Button>
      </HStack>
    </FormStack>
  )
}
