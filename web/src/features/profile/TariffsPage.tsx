import { Box, Button, Checkbox, Input, SimpleGrid, Skeleton, Stack, Table, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { FormField, FormStack } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState, StaleNote } from '../../components/States'
import { errorText, isApiError } from '../../lib/api'
import { onlyDigits, toPersianDigits } from '../../lib/digits'
import { formatNumber, formatRial } from '../../lib/format'
import { useCalculate, useTariffs, type Tariffs } from './api'

const ENCODING: Record<string, string> = { gsm7: 'انگلیسی (GSM)', ucs2: 'فارسی (یونیکد)' }

function TariffTable({ t }: { t: Tariffs }) {
  return (
    <Box overflowX="auto">
      <Table.Root size="sm" data-testid="tariff-table">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>اپراتور</Table.ColumnHeader>
            <Table.ColumnHeader>هر بخش</Table.ColumnHeader>
            <Table.ColumnHeader>افزایش</Table.ColumnHeader>
            <Table.ColumnHeader>هزینه هر ارسال</Table.ColumnHeader>
            <Table.ColumnHeader>پیامک یک‌بخشی</Table.ColumnHeader>
            <Table.ColumnHeader>پیامک دوبخشی</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {t.operators.map((o) => (
            <Table.Row key={o.operator} data-testid={`tariff-${o.operator}`}>
              <Table.Cell fontWeight="medium">{o.title}</Table.Cell>
              <Table.Cell>{formatRial(o.part_price)}</Table.Cell>
              <Table.Cell>{o.surcharge_pct ? `${toPersianDigits(o.surcharge_pct)}٪` : '—'}</Table.Cell>
              <Table.Cell>{formatRial(o.send_fee)}</Table.Cell>
              <Table.Cell>{formatRial(o.encodings[0].one_part)}</Table.Cell>
              <Table.Cell>{formatRial(o.encodings[0].two_parts)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  )
}

function EncodingNote({ t }: { t: Tariffs }) {
  const e = t.operators[0]?.encodings ?? []
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="3" mt="4">
      {e.map((x) => (
        <Box key={x.encoding} borderWidth="1px" borderColor="app.border" rounded="md" p="3">
          <Text fontWeight="medium">{ENCODING[x.encoding]}</Text>
          <Text fontSize="sm" color="app.muted">
            یک بخش تا {toPersianDigits(x.single_part_chars)} نویسه؛ در پیامک چندبخشی هر بخش {toPersianDigits(x.multi_part_chars)} نویسه.
          </Text>
        </Box>
      ))}
      <Text fontSize="sm" color="app.muted" gridColumn="1 / -1">
        متن «لغو۱۱» در خطوط تبلیغاتی {toPersianDigits(t.cancel11_chars)} نویسه از پیامک را می‌گیرد. {toPersianDigits(t.charity_pct)}٪ هزینه هر ارسال سهم خیریه است.
      </Text>
    </SimpleGrid>
  )
}

function Calculator() {
  const calc = useCalculate()
  const [text, setText] = useState('')
  const [count, setCount] = useState('1000')
  const [cancel11, setCancel11] = useState(true)
  const err = (k: string) => (isApiError(calc.error) ? calc.error.fieldError(k) : undefined)
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    calc.mutate({ text, cancel11, count: Number(count) || 0 })
  }
  const r = calc.data
  return (
    <SectionCard title="محاسبه‌گر قیمت" description="متن پیامک و تعداد گیرندگان را وارد کنید تا تعداد بخش و قیمت هر اپراتور را ببینید.">
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5">
        <FormStack gap="3" onSubmit={submit} noValidate>
          <FormField label="متن پیامک" error={err('text')}>
            <Textarea rows={4} value={text} onChange={(e) => setText(e.target.value)} data-testid="calc-text" />
          </FormField>
          <FormField label="تعداد گیرندگان" error={err('count')}>
            <Input inputMode="numeric" dir="ltr" textAlign="right" value={toPersianDigits(count)} onChange={(e) => setCount(onlyDigits(e.target.value))} data-testid="calc-count" />
          </FormField>
          <Checkbox.Root checked={cancel11} onCheckedChange={(e) => setCancel11(e.checked === true)}>
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>افزودن «لغو۱۱»</Checkbox.Label>
          </Checkbox.Root>
          <Button type="submit" colorPalette="brand" alignSelf="flex-start" loading={calc.isPending} data-testid="calc-submit">
            محاسبه
          </Button>
          {calc.isError && !isApiError(calc.error, 422) && <Text color="red.fg">{errorText(calc.error)}</Text>}
        </FormStack>
        {r && (
          <Stack gap="3" data-testid="calc-result">
            <Text>
              {toPersianDigits(r.parts)} بخش · {ENCODING[r.encoding]} · {toPersianDigits(r.characters)} نویسه
            </Text>
            <Box h="200px" dir="ltr">
              <ResponsiveContainer>
                <BarChart data={r.prices} margin={{ left: 8, right: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="title" reversed tick={{ fontSize: 12 }} />
                  <YAxis orientation="right" tickFormatter={(v: number) => formatNumber(v)} tick={{ fontSize: 11 }} width={70} />
                  <Tooltip formatter={(v) => formatRial(Number(v))} />
                  <Bar dataKey="total" name="جمع" fill="var(--chakra-colors-brand-solid)" radius={[4, 4, 0, 0]} />
                </BarChart>
              </ResponsiveContainer>
            </Box>
            {r.prices.map((p) => (
              <Text key={p.operator} fontSize="sm" data-testid={`calc-${p.operator}`}>
                {p.title}: هر پیامک {formatRial(p.each)} · جمع {formatRial(p.total)}
              </Text>
            ))}
          </Stack>
        )}
      </SimpleGrid>
    </SectionCard>
  )
}

/** /profile/tariffs: the account's prices (spec §9) and the price calculator. */
export default function TariffsPage() {
  const t = useTariffs()
  return (
    <Stack gap="4">
      <SectionCard title="تعرفه ارسال پیامک" description="قیمت هر بخش پیامک برای هر اپراتور، افزایش ایرانسل و رایتل و هزینه ثابت هر ارسال.">
        {t.isError && t.data && <StaleNote />}
        {t.isPending ? (
          <Skeleton h="40" />
        ) : !t.data ? (
          <ErrorState description={errorText(t.error)} onRetry={() => t.refetch()} />
        ) : (
          <>
            <TariffTable t={t.data} />
            <EncodingNote t={t.data} />
          </>
        )}
      </SectionCard>
      <Calculator />
    </Stack>
  )
}
