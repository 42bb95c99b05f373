import { Badge, Button, HStack, Stack, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { formatNumber } from '../lib/format'
import { PASTE_LIMIT, parsePastedNumbers, type PasteResult } from '../lib/paste'
import { NumberChips } from './NumberChips'
import { Modal } from './Overlays'

export interface PasteNumbersDialogProps {
  open: boolean
  onClose: () => void
  /** Numbers already entered: pasting them again counts as repeated. */
  existing: string[]
  /** Receives the correct numbers on confirm. */
  onConfirm: (numbers: string[]) => void
  /** How many more numbers may be added (e.g. maxCount minus those entered). */
  remaining?: number
}

type ListName = 'correct' | 'wrong' | 'repeated'

const LISTS: Array<{ name: ListName; title: string; palette: string }> = [
  { name: 'correct', title: 'شماره‌های صحیح', palette: 'green' },
  { name: 'wrong', title: 'شماره‌های نادرست', palette: 'red' },
  { name: 'repeated', title: 'شماره‌های تکراری', palette: 'orange' },
]

/** «الصاق شماره‌ها»: one number per line (or comma separated), sorted into correct, wrong and repeated. */
export function PasteNumbersDialog({ open, onClose, existing, onConfirm, remaining = Infinity }: PasteNumbersDialogProps) {
  const [text, setText] = useState('')
  const [result, setResult] = useState<PasteResult | null>(null)

  const reset = () => {
    setText('')
    setResult(null)
  }
  const close = () => {
    reset()
    onClose()
  }
  const remove = (list: ListName, index: number) =>
    setResult((r) => (r ? { ...r, [list]: r[list].filter((_, i) => i !== index) } : r))

  const taken = result ? result.correct.slice(0, Math.max(0, remaining)) : []
  const over = result ? result.correct.length - taken.length : 0

  const footer = result ? (
    <>
      <Button variant="outline" onClick={() => setResult(null)}>ویرایش متن</Button>
      <Button colorPalette="brand" disabled={taken.length === 0} onClick={() => { onConfirm(taken); close() }}>
        {`افزودن ${formatNumber(taken.length)} شماره`}
      </Button>
    </>
  ) : (
    <>
      <Button variant="outline" onClick={close}>انصراف</Button>
      <Button colorPalette="brand" disabled={!text.trim()} onClick={() => setResult(parsePastedNumbers(text, existing))}>
        بررسی شماره‌ها
      </Button>
    </>
  )

  return (
    <Modal open={open} onClose={close} title="الصاق شماره‌ها" footer={footer} size="lg" closeOnInteractOutside={false}>
      {result ? (
        <Stack gap="4">
          {result.truncated && (
            <Text role="alert" fontSize="sm" color="fg.warning">
              {`فقط ${formatNumber(PASTE_LIMIT)} شماره اول بررسی شد و بقیه نادیده گرفته شد.`}
            </Text>
          )}
          {over > 0 && (
            <Text role="alert" fontSize="sm" color="fg.warning">
              {`${formatNumber(over)} شماره صحیح به دلیل رسیدن به سقف تعداد افزوده نمی‌شود.`}
            </Text>
          )}
          {LISTS.map(({ name, title, palette }) => (
            <Stack key={name} gap="2" as="section" aria-label={title}>
              <HStack>
                <Text fontWeight="medium" fontSize="sm">{title}</Text>
                <Badge colorPalette={palette} variant="subtle">{formatNumber(result[name].length)}</Badge>
              </HStack>
              {result[name].length === 0 ? (
                <Text fontSize="sm" color="fg.muted">موردی وجود ندارد</Text>
              ) : (
                <NumberChips label={title} numbers={result[name]} colorPalette={palette} onRemove={(_, i) => remove(name, i)} />
              )}
            </Stack>
          ))}
        </Stack>
      ) : (
        <Stack gap="2">
          <Text fontSize="sm" color="fg.muted">
            {`هر شماره را در یک خط یا با ویرگول جدا کنید؛ حداکثر ${formatNumber(PASTE_LIMIT)} شماره.`}
          </Text>
          <Textarea
            aria-label="فهرست شماره‌ها"
            dir="ltr"
            textAlign="end"
            rows={8}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={'۰۹۱۲۱۲۳۴۵۶۷\n۰۹۳۵۱۲۳۴۵۶۷'}
          />
        </Stack>
      )}
    </Modal>
  )
}
