import { Box, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { Area, Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { useColorMode } from '../lib/theme'
import { axisValue, CHART_COLORS, chartValue, dayLabel, dayTick, timeTick, valueAxes, type ChartAxisSide, type ValueFormat } from './chartFormat'

/** One series of a chart: its data key, Persian name, how it is drawn and formatted. */
export interface ChartSeries {
  key: string
  name: string
  kind?: 'bar' | 'area' | 'line'
  format?: ValueFormat
  /** Index in the mode's palette (default: the series' position). */
  color?: number
  /** Series sharing a stack id are stacked. */
  stack?: string
  /** 'second' draws it against its own axis on the left (default: the main axis on the right). */
  axis?: ChartAxisSide
}

/** What the x values are: calendar days «YYYY-MM-DD», instants (ISO), or plain categories. */
export type ChartX = 'day' | 'time' | 'category'

interface Props<T> {
  data: T[]
  x: keyof T & string
  xKind?: ChartX
  series: ChartSeries[]
  height?: number
  /** Bars lying down (categories on the vertical axis), e.g. operators. */
  horizontal?: boolean
  /** The value axis' format; default the first series'. */
  yFormat?: ValueFormat
  /** Fixed value-axis bounds, e.g. [0, 100] for percentages. */
  yDomain?: [number, number]
  title?: ReactNode
  /** A line under the title (e.g. which axis is which). */
  description?: ReactNode
  testId?: string
}

function xTick(kind: ChartX, span: number) {
  return (v: unknown) => {
    const s = String(v ?? '')
    if (kind === 'day') return dayTick(s)
    if (kind === 'time') return timeTick(s, span > 20 * 3600_000, span < 10 * 60_000)
    return s
  }
}

function xLabel(kind: ChartX) {
  return (v: unknown) => {
    const s = String(v ?? '')
    if (kind === 'day') return dayLabel(s)
    if (kind === 'time') return timeTick(s, true)
    return s
  }
}

/**
 * The panel's one chart: recharts drawn right to left (the first x value on the
 * right, the value axis on the right; a series on the 'second' axis gets its own
 * scale on the left, each axis in its series' colour and named), Persian digits on the ticks and in the
 * tooltip, Jalali days on a date axis, colours of the light or dark mode.
 */
export function Chart<T extends object>({ data, x, xKind = 'category', series, height = 220, horizontal, yFormat, yDomain, title, description, testId }: Props<T>) {
  const { mode } = useColorMode()
  const c = CHART_COLORS[mode]
  const fmt = yFormat ?? series[0]?.format ?? 'number'
  const first = data[0]?.[x] as unknown
  const last = data[data.length - 1]?.[x] as unknown
  const span = xKind === 'time' && !!first && !!last ? new Date(String(last)).getTime() - new Date(String(first)).getTime() : 0
  const tick = { fill: c.axis, fontSize: 11, fontFamily: 'inherit' }
  const category = { dataKey: x as string, tickFormatter: xTick(xKind, span), tick, stroke: c.grid, tickLine: false, minTickGap: 12 }
  const value = { tickFormatter: (v: number) => axisValue(v, fmt), tick, stroke: c.grid, tickLine: false, domain: yDomain, allowDecimals: false }
  const axes = valueAxes(series, fmt)
  const twoAxes = axes.length > 1
  return (
    <Stack gap="2" data-testid={testId} dir="rtl" minW="0" w="full">
      {title && (
        <Text fontSize="sm" fontWeight="semibold">
          {title}
        </Text>
      )}
      {description && (
        <Text fontSize="xs" color="app.muted">
          {description}
        </Text>
      )}
      {/* The SVG is laid out left to right (the axes are mirrored above instead): in an RTL
          context SVG text anchors flip and the labels would run into the plot. Persian
          labels still read right to left. minW 0 and a hidden overflow keep the measured
          width from feeding back into a grid or flex item's width. */}
      <Box h={`${height}px`} w="full" minW="0" overflow="hidden" className="chapar-chart" dir="ltr">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data as object[]} layout={horizontal ? 'vertical' : 'horizontal'} margin={{ top: 8, right: 4, left: 4, bottom: 4 }}>
            <CartesianGrid stroke={c.grid} strokeDasharray="3 3" vertical={!!horizontal} horizontal={!horizontal} />
            {horizontal ? (
              <>
                <XAxis type="number" reversed {...value} />
                <YAxis type="category" orientation="right" width={72} {...category} />
              </>
            ) : (
              <>
                <XAxis reversed {...category} />
                {axes.map((a) => (
                  <YAxis key={a.id} yAxisId={a.id} orientation={a.orientation} width={64} {...value}
                    tickFormatter={(v: number) => axisValue(v, a.format)}
                    tick={twoAxes ? { ...tick, fill: c.series[a.color % c.series.length] } : tick}
                    label={twoAxes ? { value: a.names.join('، '), angle: a.orientation === 'right' ? 90 : -90, position: a.orientation === 'right' ? 'insideRight' : 'insideLeft', fill: c.series[a.color % c.series.length], fontSize: 11, style: { textAnchor: 'middle' } } : undefined} />
                ))}
              </>
            )}
            <Tooltip
              cursor={{ fill: c.grid, fillOpacity: 0.4 }}
              contentStyle={{ background: c.surface, borderColor: c.grid, color: c.text, borderRadius: 8, direction: 'rtl', fontFamily: 'inherit', fontSize: 12 }}
              labelStyle={{ color: c.text, fontWeight: 600 }}
              labelFormatter={xLabel(xKind)}
              formatter={(v, _n, item) => chartValue(Number(v), series.find((s) => s.key === item.dataKey)?.format ?? fmt)}
            />
            {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12, color: c.axis, direction: 'rtl' }} iconSize={10} />}
            {series.map((s, i) => seriesElement(s, c.series[(s.color ?? i) % c.series.length], horizontal ? undefined : (s.axis ?? 'main')))}
          </ComposedChart>
        </ResponsiveContainer>
      </Box>
    </Stack>
  )
}

function seriesElement(s: ChartSeries, color: string, yAxisId?: ChartAxisSide) {
  const horizontal = !yAxisId
  const common = { key: s.key, dataKey: s.key, name: s.name, stackId: s.stack, isAnimationActive: false, ...(yAxisId ? { yAxisId } : {}) }
  if (s.kind === 'area') return <Area {...common} type="monotone" stroke={color} fill={color} fillOpacity={0.18} strokeWidth={2} />
  if (s.kind === 'line') return <Line {...common} type="monotone" stroke={color} strokeWidth={2} dot={false} />
  return <Bar {...common} fill={color} radius={horizontal ? [4, 0, 0, 4] : [4, 4, 0, 0]} maxBarSize={28} />
}
