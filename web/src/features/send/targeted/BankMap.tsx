import { Box } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import L from 'leaflet'
import '@geoman-io/leaflet-geoman-free'
import 'leaflet/dist/leaflet.css'
import '@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css'
import { useEffect, useRef } from 'react'
import { useColorMode } from '../../../lib/theme'
import { bankApi, outlinesApi, type BankTarget, type BankTower, type Outlines } from '../api'
import { clampRadius } from './model'

/** The shape part of an audience: one polygon or one circle. */
export type Shape = Pick<BankTarget, 'polygon' | 'circle'>

interface Props {
  /** «shape»: draw one polygon, rectangle or circle; «towers»: pick Irancell cells by clicking them. */
  mode: 'shape' | 'towers'
  onShape?: (shape: Shape | null) => void
  /** The shape to show when none is drawn yet (a resumed draft's). */
  shape?: Shape
  towers?: number[]
  onTowers?: (ids: number[]) => void
  /** A province code to fit the view to. */
  focus?: number
}

const IRAN: L.LatLngBoundsExpression = [
  [25.0, 44.0],
  [39.8, 63.3],
]
/** Towers are listed from this zoom on (the view must be small enough for the API). */
const TOWER_ZOOM = 10

/** The shape a Geoman layer stands for ([lon, lat] vertices, or a circle in metres). */
function shapeOf(layer: L.Layer): Shape | null {
  if (layer instanceof L.Circle) {
    const c = layer.getLatLng()
    return { circle: { lat: c.lat, lon: c.lng, radius: clampRadius(layer.getRadius()) } }
  }
  if (layer instanceof L.Polygon) {
    const ring = (layer.getLatLngs() as L.LatLng[][])[0] ?? []
    return { polygon: ring.map((p) => [p.lng, p.lat] as [number, number]) }
  }
  return null
}

/**
 * An offline vector map of Iran (Leaflet 1.9.4 and Geoman 2.20.2): province and county outlines
 * from the bank's GeoJSON, no tile server unless MAP_TILE_URL names one. In «shape» mode one
 * polygon, rectangle or circle is drawn, moved and edited, and every change is reported; in
 * «towers» mode the Irancell cells of the view are shown once zoomed in and clicked to choose.
 */
export default function BankMap({ mode, onShape, shape, towers = [], onTowers, focus }: Props) {
  const el = useRef<HTMLDivElement>(null)
  const map = useRef<L.Map | null>(null)
  const outlineLayer = useRef<L.LayerGroup | null>(null)
  const towerLayer = useRef<L.LayerGroup | null>(null)
  const showShape = useRef<((s: Shape) => void) | null>(null)
  const picked = useRef(new Set(towers))
  const callbacks = useRef({ onShape, onTowers })
  callbacks.current = { onShape, onTowers }
  const dark = useColorMode().mode === 'dark'
  const provinces = useQuery({ queryKey: ['bank', 'outlines', 'provinces'], queryFn: () => outlinesApi.get('provinces'), staleTime: Infinity })
  const counties = useQuery({ queryKey: ['bank', 'outlines', 'counties'], queryFn: () => outlinesApi.get('counties'), staleTime: Infinity })
  const settings = useQuery({ queryKey: ['bank', 'map-settings'], queryFn: bankApi.mapSettings, staleTime: Infinity })

  useEffect(() => {
    if (!el.current) return
    const m = L.map(el.current, { preferCanvas: true, zoomSnap: 0.5, minZoom: 4, maxZoom: 16, attributionControl: true, zoomControl: false })
    L.control.zoom({ zoomInTitle: 'بزرگ‌نمایی', zoomOutTitle: 'کوچک‌نمایی' }).addTo(m)
    // data-zoom says the view's zoom once it rests (the e2e tests report it when a count is off).
    m.on('moveend', () => void (m.getContainer().dataset.zoom = m.getZoom().toFixed(1)))
    m.fitBounds(IRAN)
    m.attributionControl.setPrefix(false).addAttribution('© مشارکت‌کنندگان OpenStreetMap')
    map.current = m
    if (mode === 'shape') showShape.current = drawing(m, (s) => callbacks.current.onShape?.(s))
    return () => {
      m.remove()
      map.current = null
      showShape.current = null
    }
  }, [mode])

  const shapeKey = JSON.stringify(shape ?? null)
  useEffect(() => {
    if (shape && (shape.circle || shape.polygon?.length)) showShape.current?.(shape)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the shape's value, not its identity
  }, [shapeKey])

  useEffect(() => {
    const m = map.current
    const url = settings.data?.tile_url
    if (!m || !url) return
    const tiles = L.tileLayer(url, { maxZoom: 18 }).addTo(m)
    tiles.bringToBack()
    return () => void tiles.remove()
  }, [settings.data])

  useEffect(() => {
    const m = map.current
    if (!m || !provinces.data) return
    outlineLayer.current?.remove()
    const line = dark ? '#7c8aa5' : '#5b6b86'
    const group = L.layerGroup().addTo(m)
    if (counties.data) {
      L.geoJSON(counties.data as never, { style: { color: line, weight: 0.6, opacity: 0.5, fill: false }, interactive: false }).addTo(group)
    }
    L.geoJSON(provinces.data as never, {
      style: { color: line, weight: 1.4, fillColor: dark ? '#1e293b' : '#e8eef7', fillOpacity: 0.55 },
      interactive: false,
    }).addTo(group)
    group.eachLayer((l) => (l as L.GeoJSON).bringToBack())
    outlineLayer.current = group
  }, [provinces.data, counties.data, dark])

  useEffect(() => {
    const m = map.current
    if (!m || !provinces.data) return
    return placeLabels(m, provinces.data, counties.data)
  }, [provinces.data, counties.data])

  useEffect(() => {
    const m = map.current
    const f = provinces.data?.features.find((x) => x.properties.code === focus)
    if (!m || !f) return
    // data-focus names the province once the map has flown there (what is drawn next is in its frame).
    const box = m.getContainer()
    delete box.dataset.focus
    const arrived = () => void (box.dataset.focus = String(focus))
    m.once('moveend', arrived)
    m.flyToBounds(L.geoJSON(f as never).getBounds(), { duration: 0.6 })
    return () => void m.off('moveend', arrived)
  }, [focus, provinces.data])

  useEffect(() => {
    const m = map.current
    if (!m || mode !== 'towers') return
    const layer = L.layerGroup().addTo(m)
    towerLayer.current = layer
    const load = () => void showTowers(m, layer, picked.current, (ids) => callbacks.current.onTowers?.(ids))
    m.on('moveend', load)
    load()
    return () => {
      m.off('moveend', load)
      layer.remove()
    }
  }, [mode])

  return (
    <Box
      dir="ltr"
      ref={el}
      w="full"
      position="relative"
      zIndex="0"
      h={{ base: '380px', md: '480px' }}
      rounded="xl"
      borderWidth="1px"
      borderColor="app.border"
      bg={dark ? '#0f172a' : '#f6f8fb'}
      overflow="hidden"
      data-testid="bank-map"
      // Its own stacking context: Leaflet's panes (z-index 400+) stay under the sticky wizard bar.
      css={{
        isolation: 'isolate',
        '& .leaflet-container': { background: 'transparent', fontFamily: 'inherit' },
        '& .chapar-label': {
          position: 'absolute',
          transform: 'translate(-50%, -50%)',
          whiteSpace: 'nowrap',
          pointerEvents: 'none',
          fontSize: '12px',
          lineHeight: 1.2,
          color: dark ? '#e2e8f0' : '#1e293b',
          textShadow: dark ? '0 0 3px #0f172a, 0 0 3px #0f172a' : '0 0 3px #fff, 0 0 3px #fff',
        },
        '& .chapar-label[data-kind="province"]': { fontWeight: 700, fontSize: '13px' },
        '& .chapar-label[data-kind="county"]': { fontSize: '11px', opacity: 0.9 },
      }}
    />
  )
}

/** From this zoom on the map names the counties (each named after its main city) instead of the provinces. */
const COUNTY_LABEL_ZOOM = 7

type LabelSource = Outlines | undefined

/**
 * Persian place names on the map from the bundled geography (no tiles): the provinces at country
 * zooms, the counties of the view from COUNTY_LABEL_ZOOM on, each left out where it would overlap
 * one already placed. Labels sit in their own pane above
 * the outlines and let clicks through to the drawing tools. The container's data-labels says
 * which set is shown (provinces or counties). Returns how to remove them.
 */
function placeLabels(m: L.Map, provinces: Outlines, counties: LabelSource) {
  const pane = m.getPane('labels') ?? m.createPane('labels')
  pane.style.zIndex = '450'
  pane.style.pointerEvents = 'none'
  const layer = L.layerGroup().addTo(m)
  // Where names collide, Tehran wins, then the larger place.
  const ranked = (o: Outlines) =>
    o.features
      .map((f) => ({ f, size: f.properties.name_fa === 'تهران' ? Infinity : area(L.geoJSON(f as never).getBounds()) }))
      .sort((a, b) => b.size - a.size)
      .map((x) => x.f)
  const byRank = { provinces: ranked(provinces), counties: counties ? ranked(counties) : [] }
  const label = (name: string, center: [number, number], kind: string) =>
    L.marker([center[1], center[0]], {
      pane: 'labels',
      interactive: false,
      keyboard: false,
      icon: L.divIcon({ className: '', html: `<span data-kind="${kind}" class="chapar-label">${escapeHtml(name)}</span>`, iconSize: [0, 0] }),
    })
  const show = () => {
    layer.clearLayers()
    const near = m.getZoom() >= COUNTY_LABEL_ZOOM && counties
    const source = near ? byRank.counties : byRank.provinces
    const view = m.getBounds().pad(0.2)
    const taken: L.Bounds[] = []
    for (const f of source) {
      const c = f.properties.center
      if (!c || (near && !view.contains([c[1], c[0]]))) continue
      // A name that would overlap one already placed is left out (the next zoom shows it).
      const p = m.latLngToContainerPoint([c[1], c[0]])
      const half = L.point(f.properties.name_fa.length * 3.4 + 4, 9)
      const box = L.bounds(p.subtract(half), p.add(half))
      if (taken.some((t) => t.intersects(box))) continue
      taken.push(box)
      label(f.properties.name_fa, c, near ? 'county' : 'province').addTo(layer)
    }
    m.getContainer().dataset.labels = near ? 'counties' : 'provinces'
  }
  m.on('moveend zoomend', show)
  show()
  return () => {
    m.off('moveend zoomend', show)
    layer.remove()
  }
}

const area = (b: L.LatLngBounds) => (b.getNorth() - b.getSouth()) * (b.getEast() - b.getWest())

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** Geoman's drawing tools, one shape at a time, reported on every change; returns how to show a given shape. */
function drawing(m: L.Map, report: (s: Shape | null) => void) {
  // Geoman's own Persian has «لفو» for «لغو» (cancel).
  m.pm.setLang('fa', { actions: { cancel: 'لغو' } } as never, 'fa')
  m.pm.addControls({
    position: 'topleft',
    drawMarker: false,
    drawCircleMarker: false,
    drawPolyline: false,
    drawText: false,
    cutPolygon: false,
    rotateMode: false,
  })
  let current: L.Layer | null = null
  const emit = () => report(current ? shapeOf(current) : null)
  // The container's data-shape says what is drawn (the canvas renderer leaves no element per shape).
  const adopt = (layer: L.Layer) => {
    if (current) m.removeLayer(current)
    current = layer
    current.on('pm:change pm:edit pm:dragend', emit)
    m.getContainer().dataset.shape = layer instanceof L.Circle ? 'circle' : 'polygon'
  }
  m.on('pm:create', (e: { layer: L.Layer }) => {
    adopt(e.layer)
    emit()
  })
  m.on('pm:remove', () => {
    current = null
    delete m.getContainer().dataset.shape
    emit()
  })
  // A given shape (a resumed draft's) is drawn, editable, when none is drawn yet.
  return (s: Shape) => {
    if (current) return
    const layer = s.circle
      ? L.circle([s.circle.lat, s.circle.lon], { radius: s.circle.radius })
      : L.polygon((s.polygon ?? []).map(([lon, lat]) => [lat, lon] as [number, number]))
    adopt(layer.addTo(m))
    m.fitBounds(layer.getBounds(), { maxZoom: 13 })
  }
}

/** Draws the towers of the view once zoomed in; a click picks or drops one. */
async function showTowers(m: L.Map, layer: L.LayerGroup, picked: Set<number>, report: (ids: number[]) => void) {
  layer.clearLayers()
  if (m.getZoom() < TOWER_ZOOM) return
  const b = m.getBounds()
  let list: BankTower[]
  try {
    list = await bankApi.towers({ min_lon: b.getWest(), min_lat: b.getSouth(), max_lon: b.getEast(), max_lat: b.getNorth() })
  } catch {
    return
  }
  for (const t of list) {
    const style = (on: boolean) => ({ radius: on ? 7 : 5, color: on ? '#7c3aed' : '#f59e0b', weight: 2, fillOpacity: on ? 0.9 : 0.5 })
    const marker = L.circleMarker([t.lat, t.lon], style(picked.has(t.id))).addTo(layer)
    marker.bindTooltip(`دکل ${t.id.toLocaleString('fa-IR', { useGrouping: false })}`)
    marker.on('click', () => {
      if (picked.has(t.id)) picked.delete(t.id)
      else picked.add(t.id)
      marker.setStyle(style(picked.has(t.id)))
      report([...picked])
    })
  }
}
