import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react'

const FONT = 'Vazirmatn, Tahoma, "Segoe UI", sans-serif'

/** Brand palette: a deep teal leaning towards cyan (Chapar's colour). */
const brand = {
  50: '#ecfbfa',
  100: '#d2f4f2',
  200: '#a6e8e5',
  300: '#6fd5d2',
  400: '#37b9b8',
  500: '#179c9d',
  600: '#0f7e81',
  700: '#0f6468',
  800: '#124f53',
  900: '#134246',
  950: '#062a2d',
}

const shade = (light: string, dark: string) => ({ value: { _light: light, _dark: dark } })

const config = defineConfig({
  globalCss: {
    'html, body': { fontFamily: 'body', bg: 'app.canvas', color: 'fg', minHeight: '100%' },
    body: { lineHeight: '1.7' },
    '::selection': { bg: 'brand.muted' },
  },
  theme: {
    tokens: {
      fonts: {
        body: { value: FONT },
        heading: { value: FONT },
        mono: { value: 'Vazirmatn, ui-monospace, monospace' },
      },
      colors: {
        brand: Object.fromEntries(Object.entries(brand).map(([k, v]) => [k, { value: v }])),
      },
      radii: { card: { value: '1rem' } },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: shade('{colors.brand.600}', '{colors.brand.500}'),
          contrast: shade('white', 'white'),
          fg: shade('{colors.brand.700}', '{colors.brand.300}'),
          muted: shade('{colors.brand.100}', '{colors.brand.900}'),
          subtle: shade('{colors.brand.50}', '{colors.brand.950}'),
          emphasized: shade('{colors.brand.200}', '{colors.brand.800}'),
          focusRing: shade('{colors.brand.500}', '{colors.brand.400}'),
          border: shade('{colors.brand.500}', '{colors.brand.400}'),
        },
        app: {
          canvas: shade('#f3f6f8', '#0b1216'),
          surface: shade('#ffffff', '#111b21'),
          raised: shade('#f8fafb', '#16232a'),
          border: shade('#e3e9ee', '#223038'),
          sidebar: shade('#ffffff', '#0e171c'),
          muted: shade('#5b6b76', '#98a9b4'),
          banner: shade('{colors.brand.700}', '{colors.brand.900}'),
          bannerFg: shade('white', '{colors.brand.100}'),
        },
      },
      shadows: {
        card: shade('0 1px 2px rgba(16,42,52,0.06), 0 4px 16px rgba(16,42,52,0.05)', '0 1px 2px rgba(0,0,0,0.4)'),
      },
    },
  },
})

export const system = createSystem(defaultConfig, config)
