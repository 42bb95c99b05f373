import { describe, expect, it } from 'vitest'
import { axisValue, chartValue, valueAxes } from '../../components/chartFormat'
import { SENDS_SERIES } from './DashboardCharts'

describe('the dashboard sends chart', () => {
  it('puts sends and parts on two axes, sends on the right and parts on the left', () => {
    const axes = valueAxes(SENDS_SERIES)
    expect(axes.map((a) => [a.id, a.orientation, a.names])).toEqual([
      ['main', 'right', ['ارسال']],
      ['second', 'left', ['پیامک (بخش)']],
    ])
  })

  it('keeps one axis on the right when no series asks for a second', () => {
    const axes = valueAxes([{ name: 'هزینه', format: 'rial' }, { name: 'دریافتی' }])
    expect(axes).toHaveLength(1)
    expect(axes[0]).toMatchObject({ orientation: 'right', format: 'rial', names: ['هزینه', 'دریافتی'] })
  })

  it('writes both axes and the tooltip in Persian digits (4 sends next to 98 parts)', () => {
    expect(axisValue(4)).toBe('۴')
    expect(axisValue(98)).toBe('۹۸')
    expect(chartValue(1_250)).toBe('۱٬۲۵۰')
  })
})
