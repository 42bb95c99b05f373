import { Badge, Box, Stack, Text, Wrap } from '@chakra-ui/react'
import { Modal } from '../../components/Overlays'
import { ErrorState, LoadingState, StaleNote } from '../../components/States'
import { toPersianDigits } from '../../lib/digits'
import { wordDiff } from '../../lib/textDiff'
import { usePatternVersion, type PatternVersion } from './api'

/** The pattern review view: the version's text and variables, and what changed since the version before it. */
export function PatternVersionDialog({ versionID, onClose }: { versionID: number; onClose: () => void }) {
  const q = usePatternVersion(versionID)
  const r = q.data
  return (
    <Modal open onClose={onClose} title="بررسی الگو" size="lg">
      {q.isPending ? <LoadingState /> : !r ? <ErrorState onRetry={() => void q.refetch()} /> : (
        <Stack gap="4" data-testid="pattern-review">
          {q.isError && <StaleNote alignSelf="flex-start" />}
          <Text fontSize="sm" color="fg.muted">
            {`حساب «${r.account}» (نام برند) — کد `}<bdi dir="ltr">{r.code}</bdi>{` — نوع ${r.kind} — نسخه ${toPersianDigits(r.version.version)}`}
          </Text>
          {r.previous && r.previous.kind !== r.version.kind && (
            <Text fontSize="sm" color="fg.warning" data-testid="pattern-kind-change">
              {`نوع الگو تغییر می‌کند: ${r.previous.kind} ← ${r.version.kind} (مسیر ارسال پیامک)`}
            </Text>
          )}
          <Text fontWeight="medium">{r.version.title}</Text>
          <Box bg="bg.muted" rounded="lg" p="3" whiteSpace="pre-wrap" fontSize="sm" wordBreak="break-word">{r.version.text}</Box>
          <Variables v={r.version} />
          {r.previous ? (
            <Stack gap="2">
              <Text fontSize="sm" fontWeight="medium">{`تغییر نسبت به نسخه ${toPersianDigits(r.previous.version)}`}</Text>
              <Box borderWidth="1px" rounded="lg" p="3" whiteSpace="pre-wrap" fontSize="sm" wordBreak="break-word" data-testid="pattern-diff">
                {wordDiff(r.previous.text, r.version.text).map((d, i) =>
                  d.op === 'same' ? <span key={i}>{d.text}</span>
                    : <Box as={d.op === 'add' ? 'ins' : 'del'} key={i} px="0.5" rounded="sm"
                      bg={d.op === 'add' ? 'green.subtle' : 'red.subtle'} color={d.op === 'add' ? 'green.fg' : 'red.fg'}>{d.text}</Box>)}
              </Box>
              <Text fontSize="xs" color="fg.muted">متغیرهای نسخه قبل:</Text>
              <Variables v={r.previous} />
            </Stack>
          ) : <Text fontSize="sm" color="fg.muted">نخستین نسخه این الگو است.</Text>}
        </Stack>
      )}
    </Modal>
  )
}

function Variables({ v }: { v: PatternVersion }) {
  return (
    <Wrap gap="1.5">
      {v.variables.map((x) => (
        <Badge key={x.name} variant="subtle"><bdi dir="ltr">{`%${x.name}%`}</bdi> · {x.type === 'integer' ? 'عدد' : 'رشته'} · {toPersianDigits(x.length)}</Badge>
      ))}
    </Wrap>
  )
}
