import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { setToken } from '../../lib/auth'
import { toPersianDigits } from '../../lib/digits'
import { warmChunks, warmSignedIn } from '../../lib/warmup'
import { useLoginSetting, type LoginResult } from './api'
import { AuthShell } from './AuthShell'
import { CredentialsForm } from './CredentialsForm'
import { OtpStep, type OtpChallenge } from './OtpStep'

/** /login: username + password, then (when required) a one-time code. */
export default function LoginPage() {
  const { data: setting } = useLoginSetting()
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
      })
    } else if (r.token) finish(r.token)
  }

  return (
    <AuthShell
      title={challenge ? 'تایید ورود دومرحله‌ای' : 'ورود به پنل'}
      subtitle={challenge ? 'برای امنیت حساب، کد تایید را وارد کنید.' : 'برای ادامه، نام کاربری و رمز عبور خود را وارد کنید.'}
      brandTitle={setting?.title ? toPersianDigits(setting.title) : undefined}
      brandDescription={setting?.description}
      oldPanel
    >
      {challenge ? (
        <OtpStep challenge={challenge} onToken={finish} onRestart={() => setChallenge(null)} />
      ) : (
        <CredentialsForm onResult={onResult} />
      )}
    </AuthShell>
  )
}
