import { Box, type BoxProps } from '@chakra-ui/react'
import { useMemo } from 'react'
import { errorDisplay } from '../lib/apiError'
import { serverHtml } from '../lib/sanitize'

interface Props extends Omit<BoxProps, 'children'> {
  /** An error from the API client (or a plain string); shown by the spec §8 display rule. */
  error: unknown
}

/**
 * Shows an error text. Messages that came from the server may hold simple HTML (spec §8):
 * they are rebuilt from an allowlist as React elements, never set as raw HTML.
 */
export function ServerMessage({ error, ...rest }: Props) {
  const { text, html } = errorDisplay(error)
  const nodes = useMemo(() => (html ? serverHtml(text) : null), [html, text])
  if (nodes) return <Box {...rest}>{nodes}</Box>
  return (
    <Box whiteSpace="pre-line" {...rest}>
      {text}
    </Box>
  )
}
