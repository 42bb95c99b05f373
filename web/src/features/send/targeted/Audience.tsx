import { Button, HStack, Input, Stack, Text, Wrap } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useState } from 'react'
import { FormField } from '../../../components/FormField'
import { Select } from '../../../components/Select'
import { LoadingState } from '../../../components/States'
import { toPersianDigits } from '../../../lib/digits'
import { formatNumber } from '../../../lib/format'
import { sortPersian } from '../../../lib/collate'
import { bankApi, type BankPlace, type BankTarget, type TargetedKind } from '../api'
import { parsePostal } from './model'

const BankMap = lazy(() => import('./BankMap'))

interface Props {
  kind: TargetedKind
  target: BankTarget
  onChange: (t: BankTarget) => void
  error?: string
}

/** Places as options in Persian alphabetical order. */
const options = (list: BankPlace[] | undefined) =>
  sortPersian(list ?? [], (p) => p.name).map((p) => ({ value: p.id, label: `${p.name} (${formatNumber(p.count)})` }))

/** Where the audience is: places, businesses, postal prefixes, a map shape or towers, by method. */
export function AudiencePicker({ kind, target, onChange, error }: Props) {
  const set = (p: Partial<BankTarget>) => onChange({ ...target, ...p })
  const [focus, setFocus] = useState<number | null>(null)
  const provinces = useQuery({
    queryKey: ['bank', 'provinces'],
    queryFn: ({ signal }) => bankApi.provinces(signal),
    staleTime: 600_000,
    enabled: kind === 'map' || kind === 'tower_irancell',
  })
  const goTo = (
    <Select<number>
      searchable
      options={options(provinces.data)}
      isLoading={provinces.isPending}
      value={focus}
      onChange={setFocus}
      placeholder="رفتن به استان…"
      id="bank-map-focus"
      size="sm"
    />
  )
  switch (kind) {
    case 'city_province':
      return <PlacePicker target={target} set={set} error={error} />
    case 'business':
      return <JobPicker target={target} set={set} error={error} />
    case 'postal_code':
      return <PostalPicker target={target} set={set} error={error} />
    case 'map':
      return (
        <FormField label="محدوده روی نقشه" error={error} helper="با ابزارهای گوشه نقشه یک چندضلعی، مستطیل یا دایره رسم کنید؛ شکل را می‌توانید جابه‌جا یا ویرایش کنید.">
          <Suspense fallback={<LoadingState title="در حال بارگذاری نقشه" />}>
            <Stack gap="2" w="full">
              {goTo}
              <BankMap
                mode="shape"
                focus={focus ?? undefined}
                shape={{ polygon: target.polygon, circle: target.circle }}
                onShape={(s) => onChange({ ...target, polygon: s?.polygon, circle: s?.circle })}
              />
            </Stack>
          </Suspense>
        </FormField>
      )
    case 'tower_irancell':
      return (
        <FormField
          label={`دکل‌های ایرانسل (${toPersianDigits(String(target.towers?.length ?? 0))} انتخاب شده)`}
          error={error}
          helper="نقشه را روی شهر مورد نظر بزرگ کنید تا دکل‌ها نمایش داده شوند؛ با کلیک روی هر دکل آن را انتخاب یا حذف کنید."
        >
          <Suspense fallback={<LoadingState title="در حال بارگذاری نقشه" />}>
            <Stack gap="2" w="full">
              {goTo}
              <BankMap mode="towers" focus={focus ?? undefined} towers={target.towers} onTowers={(towers) => set({ towers })} />
            </Stack>
          </Suspense>
        </FormField>
      )
  }
}

type PickerProps = { target: BankTarget; set: (p: Partial<BankTarget>) => void; error?: string }

function PlacePicker({ target, set, error }: PickerProps) {
  const provinces = useQuery({ queryKey: ['bank', 'provinces'], queryFn: ({ signal }) => bankApi.provinces(signal), staleTime: 600_000 })
  const one = target.provinces?.length === 1 ? target.provinces[0] : 0
  const counties = useQuery({ queryKey: ['bank', 'counties', one], queryFn: ({ signal }) => bankApi.counties(one, signal), enabled: one > 0 })
  const cities = useQuery({ queryKey: ['bank', 'cities', one], queryFn: ({ signal }) => bankApi.cities(one, signal), enabled: one > 0 })
  return (
    <Stack gap="4">
      <FormField label="استان" error={error}>
        <Select<number>
          multiple
          searchable
          options={options(provinces.data)}
          isLoading={provinces.isPending}
          value={target.provinces ?? []}
          onChange={(v) => set({ provinces: v, counties: [], cities: [] })}
          placeholder="استان‌ها را انتخاب کنید"
          id="bank-provinces"
        />
      </FormField>
      {one > 0 && (
        <>
          <FormField label="شهرستان (اختیاری)">
            <Select<number> multiple searchable options={options(counties.data)} isLoading={counties.isPending} value={target.counties ?? []} onChange={(v) => set({ counties: v })} placeholder="همه شهرستان‌ها" id="bank-counties" />
          </FormField>
          <FormField label="شهر (اختیاری)">
            <Select<number> multiple searchable options={options(cities.data)} isLoading={cities.isPending} value={target.cities ?? []} onChange={(v) => set({ cities: v })} placeholder="همه شهرها" id="bank-cities" />
          </FormField>
        </>
      )}
    </Stack>
  )
}

function JobPicker({ target, set, error }: PickerProps) {
  const cats = useQuery({ queryKey: ['bank', 'categories'], queryFn: ({ signal }) => bankApi.categories(signal), staleTime: 600_000 })
  const one = target.categories?.length === 1 ? target.categories[0] : 0
  const subs = useQuery({ queryKey: ['bank', 'subcategories', one], queryFn: ({ signal }) => bankApi.subCategories(one, signal), enabled: one > 0 })
  const provinces = useQuery({ queryKey: ['bank', 'provinces'], queryFn: ({ signal }) => bankApi.provinces(signal), staleTime: 600_000 })
  return (
    <Stack gap="4">
      <FormField label="صنف" error={error}>
        <Select<number> multiple searchable options={options(cats.data)} isLoading={cats.isPending} value={target.categories ?? []} onChange={(v) => set({ categories: v, subcategories: [] })} placeholder="صنف‌ها را انتخاب کنید" id="bank-categories" />
      </FormField>
      {one > 0 && (
        <FormField label="زیرصنف (اختیاری)">
          <Select<number> multiple searchable options={options(subs.data)} isLoading={subs.isPending} value={target.subcategories ?? []} onChange={(v) => set({ subcategories: v })} placeholder="همه زیرصنف‌ها" id="bank-subcategories" />
        </FormField>
      )}
      <FormField label="استان (اختیاری)">
        <Select<number> multiple searchable options={options(provinces.data)} isLoading={provinces.isPending} value={target.provinces ?? []} onChange={(v) => set({ provinces: v })} placeholder="همه استان‌ها" id="bank-job-provinces" />
      </FormField>
    </Stack>
  )
}

function PostalPicker({ target, set, error }: PickerProps) {
  const text = (target.postal_codes ?? []).join('، ')
  return (
    <FormField label="پیش‌شماره‌های کد پستی" error={error} helper="یک یا چند پیش‌شماره (مثلا ۱۶۱ یا ۳۹۱۸۷) را با فاصله یا ویرگول جدا کنید.">
      <Input
        defaultValue={toPersianDigits(text)}
        inputMode="numeric"
        onChange={(e) => set({ postal_codes: parsePostal(e.target.value).prefixes })}
        placeholder="۱۶۱، ۳۹۱"
        data-testid="bank-postal"
      />
    </FormField>
  )
}

const OPERATORS = [
  ['mci', 'همراه اول'],
  ['irancell', 'ایرانسل'],
  ['rightel', 'رایتل'],
] as const
const GENDERS = [
  [1, 'مرد'],
  [2, 'زن'],
] as const
const AGES = [
  [1, '۱۸–۲۴'],
  [2, '۲۵–۳۴'],
  [3, '۳۵–۴۴'],
  [4, '۴۵–۵۴'],
  [5, '۵۵+'],
] as const

/** Toggle buttons of one narrowing (none chosen: all). */
function Toggles<V extends string | number>({ label, items, value, onChange }: { label: string; items: readonly (readonly [V, string])[]; value: V[]; onChange: (v: V[]) => void }) {
  return (
    <Stack gap="1.5">
      <Text fontSize="sm" fontWeight="medium">
        {label}
      </Text>
      <Wrap gap="2">
        {items.map(([v, l]) => {
          const on = value.includes(v)
          return (
            <Button key={String(v)} size="xs" variant={on ? 'solid' : 'outline'} colorPalette={on ? 'brand' : 'gray'} aria-pressed={on} onClick={() => onChange(on ? value.filter((x) => x !== v) : [...value, v])}>
              {l}
            </Button>
          )
        })}
      </Wrap>
    </Stack>
  )
}

/** Narrowing by operator (not for towers: they are Irancell's), gender and age band. */
export function Narrowing({ kind, target, onChange }: Omit<Props, 'error'>) {
  const set = (p: Partial<BankTarget>) => onChange({ ...target, ...p })
  return (
    <HStack gap="6" wrap="wrap" align="start">
      {kind !== 'tower_irancell' && <Toggles label="اپراتور" items={OPERATORS} value={target.operators ?? []} onChange={(operators) => set({ operators })} />}
      <Toggles label="جنسیت" items={GENDERS} value={target.genders ?? []} onChange={(genders) => set({ genders })} />
      <Toggles label="سن" items={AGES} value={target.age_bands ?? []} onChange={(age_bands) => set({ age_bands })} />
    </HStack>
  )
}
