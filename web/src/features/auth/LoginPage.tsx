import { Tabs } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { setToken } from '../../lib/auth'
import { toPersianDigits } from '../../lib/digits'
import { warmChunks, warmSignedIn } from '../../lib/warmup'
import { useLoginSetting, type LoginResult } from './api'
import { AuthShell } from './AuthShell'
import { CodeRequestForm } from './CodeRequestForm'
import { CredentialsForm } from './CredentialsForm'
import { OtpStep, type OtpChallenge } from './OtpStep'

type Mode = 'password' | 'code'

/** localStorage key of the way this browser last chose to log in. */
const MODE_KEY = 'login_mode'

function storedMode(): Mode {
  try {
    return localStorage.getItem(MODE_KEY) === 'code' ? 'code' : 'password'
  } catch {
    return 'password'
  }
}

/** The two ways in: one line each at 390 px too, the chosen one raised like the card in both themes. */
const MODE_TRIGGER = {
  fontSize: 'sm',
  px: '2',
  whiteSpace: 'nowrap',
  _selected: { bg: 'app.surface', color: 'brand.fg', fontWeight: 'semibold', shadow: 'xs' },
} as const

const TITLES: Record<Mode, { title: string; subtitle: string }> = {
  password: { title: 'ورود به پنل', subtitle: 'برای ادامه، نام کاربری و رمز عبور خود را وارد کنید.' },
  code: { title: 'ورود به پنل', subtitle: 'بدون رمز عبور، با رمز یکبار مصرفی که به شماره همراه حساب پیامک می‌شود وارد شوید.' },
}

/**
 * /login: «ورود با رمز عبور» (username + password, then the second step when required) or
 * «ورود با رمز یکبار مصرف» (a username or mobile, then the texted code). The choice is
 * remembered in this browser.
 */
export default function LoginPage() {
  const { data: setting } = useLoginSetting()
  const [mode, setMode] = useState<Mode>(storedMode)
  const [challenge, setChallenge] = useState<OtpChallenge | null>(null)
  const navigate = useNavigate()
  const location = useLocation()
  const queryClient = useQueryClient()
  // The layout and the dashboard load while the visitor types.
  useEffect(() => warmChunks(), [])

  const finish = (token: string) => {
    queryClient.clear()
    setToken(token)
    const from = (location.state as { from?: string } | null)?.from
    const target = from && from !== '/login' ? from : '/dashboard'
    if (target === '/dashboard') warmSignedIn(queryClient)
    navigate(target, { replace: true })
  }

  const onResult = (r: LoginResult) => {
    if (r.otp_required) {
      setChallenge({
        login_token: r.login_token,
        methods: r.methods?.length ? r.methods : ['sms'],
        method: r.method ?? r.methods?.[0] ?? 'sms',
        resend_after: r.resend_after ?? 120,
        mobile_hint: r.mobile_hint,
        message: r.message,
      })
    } else if (r.token) finish(r.token)
  }

  const choose = (m: Mode) => {
    setMode(m)
    try {
      localStorage.setItem(MODE_KEY, m)
    } catch {
      // the choice is simply not remembered
    }
  }

  const step = challenge ? stepTitle(mode) : TITLES[mode]
  return (
    <AuthShell
      title={step.title}
      subtitle={step.subtitle}
      brandTitle={setting?.title ? toPersianDigits(setting.title) : undefined}
      brandDescription={setting?.description}
      oldPanel
    >
      {challenge ? (
        <OtpStep challenge={challenge} onToken={finish} onRestart={() => setChallenge(null)} />
      ) : (
        <Tabs.Root value={mode} onValueChange={(e) => choose(e.value as Mode)} variant="enclosed" fitted colorPalette="brand" lazyMount unmountOnExit>
          <Tabs.List mb="5" aria-label="روش ورود">
            <Tabs.Trigger value="password" {...MODE_TRIGGER} data-testid="login-mode-password">
              ورود با رمز عبور
            </Tabs.Trigger>
            <Tabs.Trigger value="code" {...MODE_TRIGGER} data-testid="login-mode-code">
              ورود با رمز یکبار مصرف
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="password" p="0">
            <CredentialsForm onResult={onResult} />
          </Tabs.Content>
          <Tabs.Content value="code" p="0">
            <CodeRequestForm onResult={onResult} />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </AuthShell>
  )
}

function stepTitle(mode: Mode) {
  return mode === 'code'
    ? { title: 'ورود با رمز یکبار مصرف', subtitle: 'رمز یکبار مصرف را وارد کنید.' }
    : { title: 'تایید ورود دومرحله‌ای', subtitle: 'برای امنیت حساب، کد تایید را وارد کنید.' }
}
