import { Alert, Button, Input, NativeSelect, SegmentGroup, SimpleGrid, Skeleton, Textarea } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { FormField, FormStack } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState } from '../../components/States'
import { errorText, isApiError } from '../../lib/api'
import { toaster } from '../../lib/toaster'
import { useProfile, useUpdateProfile, type Details, type PersonType, type Section } from './api'

interface FieldDef {
  key: keyof Details
  label: string
  required?: boolean
  latin?: boolean
  digits?: boolean
  placeholder?: string
  options?: [string, string][]
  wide?: boolean
  multiline?: boolean
}

const REAL: FieldDef[] = [
  { key: 'first_name', label: 'نام', required: true },
  { key: 'last_name', label: 'نام خانوادگی', required: true },
  { key: 'first_name_en', label: 'نام (لاتین)', latin: true, placeholder: 'Sara' },
  { key: 'last_name_en', label: 'نام خانوادگی (لاتین)', latin: true, placeholder: 'Ahmadi' },
  { key: 'national_code', label: 'کد ملی', required: true, digits: true, placeholder: '۱۰ رقم' },
  { key: 'father_name', label: 'نام پدر' },
  { key: 'birth_place', label: 'محل تولد' },
  { key: 'birth_date', label: 'تاریخ تولد', digits: true, placeholder: '۱۳۷۰/۰۱/۲۰' },
  { key: 'gender', label: 'جنسیت', options: [['', 'انتخاب کنید'], ['female', 'زن'], ['male', 'مرد']] },
]

const LEGAL: FieldDef[] = [
  { key: 'company_name', label: 'نام شرکت', required: true },
  { key: 'company_name_en', label: 'نام شرکت (لاتین)', latin: true },
  { key: 'registration_number', label: 'شماره ثبت', required: true, digits: true, placeholder: '۳ تا ۱۵ رقم' },
  { key: 'economic_number', label: 'کد اقتصادی', digits: true, placeholder: '۳ تا ۱۲ رقم' },
  { key: 'company_national_id', label: 'شناسه ملی', required: true, digits: true, placeholder: '۳ تا ۱۱ رقم' },
  { key: 'ceo_name', label: 'نام مدیرعامل' },
  { key: 'ceo_national_code', label: 'کد ملی مدیرعامل', digits: true },
]

const CONTACT: FieldDef[] = [
  { key: 'email', label: 'ایمیل', required: true, latin: true, placeholder: 'name@example.ir' },
  { key: 'website', label: 'نشانی سایت', latin: true, placeholder: 'https://' },
  { key: 'city_code', label: 'کد شهر', digits: true, placeholder: '۰۲۱' },
  { key: 'landline', label: 'تلفن ثابت', digits: true, placeholder: '۸۸۷۷۶۶۵۵' },
]

const ADDRESS: FieldDef[] = [
  { key: 'province', label: 'استان', required: true },
  { key: 'city', label: 'شهر', required: true },
  { key: 'postal_code', label: 'کد پستی', required: true, digits: true, placeholder: '۱۰ رقم' },
  { key: 'address', label: 'نشانی', required: true, wide: true, multiline: true },
]

const TITLES: Record<Section, string> = { personal: 'اطلاعات شخصی', contact: 'اطلاعات تماس', address: 'اطلاعات نشانی' }

function fieldsOf(section: Section, personType: PersonType): FieldDef[] {
  if (section === 'contact') return CONTACT
  if (section === 'address') return ADDRESS
  return personType === 'legal' ? LEGAL : REAL
}

/** Which of a section's fields the official invoice prints as the buyer's (pkg/invoice). */
const INVOICE_NOTE: Record<string, string> = {
  personal: 'کد ملی شما به‌عنوان مشخصات خریدار روی فاکتور رسمی پرداخت‌ها چاپ می‌شود.',
  legal: 'نام شرکت، شناسه ملی، شماره ثبت و کد اقتصادی به‌عنوان مشخصات خریدار روی فاکتور رسمی پرداخت‌ها چاپ می‌شود.',
  address: 'نشانی و کد پستی به‌عنوان مشخصات خریدار روی فاکتور رسمی پرداخت‌ها چاپ می‌شود.',
}

/** One section of the profile: its fields, the server's Persian error under each, and save. */
export function SectionForm({ section }: { section: Section }) {
  const profile = useProfile()
  const save = useUpdateProfile()
  const [personType, setPersonType] = useState<PersonType>('real')
  const [values, setValues] = useState<Partial<Details>>({})
  useEffect(() => {
    if (!profile.data) return
    setPersonType(profile.data.person_type)
    setValues(profile.data.details)
  }, [profile.data])
  if (profile.isPending) return <Skeleton h="64" rounded="card" />
  if (profile.isError) return <ErrorState description={errorText(profile.error)} onRetry={() => profile.refetch()} />
  const fieldError = (k: string) => (isApiError(save.error) ? save.error.fieldError(k) : undefined)
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    save.mutate(
      { section, person_type: section === 'personal' ? personType : undefined, details: values },
      {
        onSuccess: () => toaster.create({ type: 'success', description: `${TITLES[section]} ذخیره شد` }),
        onError: (err) => !isApiError(err, 422) && toaster.create({ type: 'error', description: errorText(err) }),
      },
    )
  }
  const set = (k: keyof Details, v: string) => setValues((old) => ({ ...old, [k]: v }))
  // The owner's identity is the owner's alone: a colleague neither reads nor edits it.
  const ownerOnly = section === 'personal' && !profile.data.is_owner
  return (
    <SectionCard title={TITLES[section]} data-testid={`profile-form-${section}`}
      description={section === 'contact' ? undefined : INVOICE_NOTE[personType === 'legal' && section === 'personal' ? 'legal' : section]}>
      {ownerOnly && (
        <Alert.Root status="info" rounded="lg" mb="4" data-testid="profile-owner-only">
          <Alert.Indicator />
          <Alert.Title>اطلاعات هویتی حساب را فقط مالک حساب می‌بیند و ویرایش می‌کند.</Alert.Title>
        </Alert.Root>
      )}
      <FormStack gap="5" onSubmit={submit} noValidate>
        {section === 'personal' && (
          <FormField label="نوع شخص" error={fieldError('person_type')}>
            <SegmentGroup.Root value={personType} onValueChange={(e) => setPersonType(e.value as PersonType)} data-testid="profile-person-type">
              <SegmentGroup.Indicator />
              <SegmentGroup.Items items={[{ value: 'real', label: 'حقیقی' }, { value: 'legal', label: 'حقوقی' }]} />
            </SegmentGroup.Root>
          </FormField>
        )}
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          {fieldsOf(section, personType).map((f) => (
            <FieldInput key={f.key} def={f} value={values[f.key] ?? ''} error={fieldError(f.key)} onChange={(v) => set(f.key, v)} />
          ))}
        </SimpleGrid>
        <Button type="submit" colorPalette="brand" alignSelf={{ base: 'stretch', md: 'flex-start' }} loading={save.isPending}
          disabled={ownerOnly} data-testid="profile-save">
          ذخیره
        </Button>
      </FormStack>
    </SectionCard>
  )
}

function FieldInput({ def, value, error, onChange }: { def: FieldDef; value: string; error?: string; onChange: (v: string) => void }) {
  const testid = `profile-${def.key}`
  const common = { value, placeholder: def.placeholder, 'aria-label': def.label, 'data-testid': testid }
  let control
  if (def.options) {
    control = (
      <NativeSelect.Root>
        <NativeSelect.Field value={value} onChange={(e) => onChange(e.target.value)} aria-label={def.label} data-testid={testid}>
          {def.options.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    )
  } else if (def.multiline) {
    control = <Textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} onBlur={() => onChange(value.trim())} />
  } else {
    control = (
      <Input
        {...common}
        dir={def.latin || def.digits ? 'ltr' : undefined}
        textAlign={def.latin || def.digits ? 'right' : undefined}
        inputMode={def.digits ? 'numeric' : undefined}
        onChange={(e) => onChange(e.target.value)}
        onBlur={() => onChange(value.trim())}
      />
    )
  }
  return (
    <div style={def.wide ? { gridColumn: '1 / -1' } : undefined}>
      <FormField label={def.label} required={def.required} error={error}>
        {control}
      </FormField>
    </div>
  )
}
