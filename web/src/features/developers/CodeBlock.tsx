import { Box, Button, HStack } from '@chakra-ui/react'
import { toaster } from '../../lib/toaster'

/** A left-to-right code block with a copy button (the reference's examples, plugin URLs). */
export function CodeBlock({ code, testId }: { code: string; testId?: string }) {
  const copy = () =>
    navigator.clipboard
      .writeText(code)
      .then(() => toaster.create({ type: 'success', title: 'نمونه کد کپی شد' }))
      .catch(() => toaster.create({ type: 'error', title: 'کپی نشد؛ متن را دستی انتخاب کنید' }))
  return (
    <Box position="relative" rounded="lg" borderWidth="1px" borderColor="app.border" bg="bg.muted">
      <HStack position="absolute" top="1.5" insetInlineStart="1.5">
        <Button size="2xs" variant="surface" onClick={copy} data-testid={testId ? `${testId}-copy` : undefined}>
          کپی
        </Button>
      </HStack>
      <Box
        as="pre"
        dir="ltr"
        textAlign="left"
        fontFamily="mono"
        fontSize="xs"
        p="3"
        pt="9"
        overflowX="auto"
        whiteSpace="pre"
        data-testid={testId}
      >
        {code}
      </Box>
    </Box>
  )
}
