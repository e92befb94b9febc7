import type { DemoAccount } from './accounts'

/**
 * The embedded provider's pages: Japanese, accessible, self-contained (inline CSS, no scripts, no external assets).
 */

const SITE_NAME = 'まなびのたね'

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
}

const CSS = `
*,*::before,*::after{box-sizing:border-box}
html{font-size:16px;-webkit-text-size-adjust:100%}
body{margin:0;background:#e4f6fd;color:#1f2933;font-family:"Hiragino Kaku Gothic ProN","Hiragino Sans","Noto Sans JP","Yu Gothic UI",Meiryo,system-ui,sans-serif;line-height:1.7}
main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:16px;box-shadow:0 2px 12px rgba(11,59,82,.12)}
@media (max-width:480px){main{margin:0;min-height:100vh;border-radius:0}}
header{display:flex;align-items:center;justify-content:space-between;gap:.5rem;margin-bottom:1rem}
.brand{font-weight:700;color:#0b3b52;font-size:1.05rem}
.badge{display:inline-block;padding:.1rem .6rem;border-radius:999px;background:#ffd84d;color:#3d2f00;font-size:.75rem;font-weight:700}
h1{font-size:1.4rem;margin:.25rem 0 1rem;color:#0b3b52}
h2{font-size:1rem;margin:1.5rem 0 .5rem;color:#0b3b52}
p{margin:.5rem 0}
.muted{color:#52606d;font-size:.875rem}
ul.accounts{list-style:none;margin:0;padding:0;display:grid;gap:.5rem}
form{margin:0}
.account{display:block;width:100%;text-align:left;padding:.75rem 1rem;border:2px solid #c9e9f6;border-radius:12px;background:#fff;color:inherit;font:inherit;cursor:pointer}
.account:hover{border-color:#4ec2f0;background:#f5fbfe}
.account.hinted{border-color:#7b5cd6}
.account .name{display:block;font-weight:700}
.account .desc{display:block;font-size:.8125rem;color:#52606d}
.account .mail{display:block;font-size:.8125rem;color:#0b3b52;word-break:break-all}
label{display:block;font-weight:700;font-size:.875rem;margin:.75rem 0 .25rem}
input[type=email],input[type=password],input[type=text]{width:100%;min-height:2.75rem;padding:.5rem .75rem;border:1px solid #9aa5b1;border-radius:8px;font:inherit;background:#fff}
.hint{font-size:.8125rem;color:#52606d;margin:.25rem 0 0}
.button{display:inline-block;width:100%;min-height:2.75rem;margin-top:1rem;padding:.6rem 1rem;border:0;border-radius:999px;background:#7b5cd6;color:#fff;font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}
.button:hover{background:#4b2fa3}
.button.secondary{background:#fff;color:#4b2fa3;border:2px solid #7b5cd6}
.linkbutton{border:0;background:none;padding:0;color:#4b2fa3;font:inherit;text-decoration:underline;cursor:pointer}
a{color:#4b2fa3}
:focus-visible{outline:3px solid #ffd84d;outline-offset:2px}
.alert{padding:.75rem 1rem;border-radius:8px;background:#fdecec;color:#b4232a;border:1px solid #e5484d;margin:1rem 0}
.notice{padding:.75rem 1rem;border-radius:8px;background:#f2f4f7;margin:1rem 0}
hr{border:0;border-top:1px solid #e4e7eb;margin:1.5rem 0}
footer{margin-top:1.5rem;font-size:.8125rem;color:#52606d}
`

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<title>${escapeHtml(title)} | ${SITE_NAME}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<header><span class="brand">${SITE_NAME}</span><span class="badge">デモ環境</span></header>
${body}
</main>
</body>
</html>`
}

function alert(message: string | undefined): string {
  return message ? `<div class="alert" role="alert">${escapeHtml(message)}</div>` : ''
}

export interface LoginPageInput {
  action: (name: 'login' | 'password' | 'signup-page' | 'abort') => string
  accounts: readonly DemoAccount[]
  /** An account the client hinted at (login_hint), highlighted. */
  hintedSub?: string
  email?: string
  error?: string
}

export function loginPage(input: LoginPageInput): string {
  const buttons = input.accounts
    .map((account) => {
      const hinted = account.sub === input.hintedSub
      return `<li><form method="post" action="${escapeHtml(input.action('login'))}">
<input type="hidden" name="account" value="${escapeHtml(account.sub)}">
<button type="submit" class="account${hinted ? ' hinted' : ''}"${hinted ? ' autofocus' : ''}>
<span class="name">${escapeHtml(account.name)}（${escapeHtml(account.nickname)}）でログイン</span>
<span class="desc">${escapeHtml(account.description)}</span>
<span class="mail">${account.email ? escapeHtml(account.email) : 'メールアドレスなし（LINE）'}</span>
</button></form></li>`
    })
    .join('\n')
  return layout(
    'ログイン',
    `<h1>ログイン</h1>
${alert(input.error)}
${
  input.accounts.length > 0
    ? `<p class="muted">デモ環境のため、下のアカウントをクリックするだけでログインできます。</p>
<section aria-labelledby="demo-heading">
<h2 id="demo-heading">デモアカウント</h2>
<ul class="accounts">
${buttons}
</ul>
</section>
<hr>
`
    : ''
}<section aria-labelledby="password-heading">
<h2 id="password-heading">メールアドレスでログイン</h2>
<form method="post" action="${escapeHtml(input.action('password'))}">
<label for="email">メールアドレス</label>
<input id="email" name="email" type="email" autocomplete="username" inputmode="email" required value="${escapeHtml(input.email)}">
<label for="password">パスワード</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" class="button">ログイン</button>
</form>
<p>アカウントをお持ちでない方は <a href="${escapeHtml(input.action('signup-page'))}">新規登録</a></p>
</section>
<footer>
<form method="post" action="${escapeHtml(input.action('abort'))}"><button type="submit" class="linkbutton">ログインせずに${SITE_NAME}に戻る</button></form>
</footer>`,
  )
}

export interface SignupPageInput {
  action: (name: 'signup' | 'login-page' | 'abort') => string
  email?: string
  nickname?: string
  error?: string
  minPasswordLength: number
}

export function signupPage(input: SignupPageInput): string {
  return layout(
    '新規登録',
    `<h1>新規登録</h1>
${alert(input.error)}
<p class="muted">メールアドレスとパスワードでアカウントを作成します。登録後、メールアドレスの確認が必要です。</p>
<form method="post" action="${escapeHtml(input.action('signup'))}">
<label for="email">メールアドレス</label>
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" required value="${escapeHtml(input.email)}">
<label for="password">パスワード</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${input.minPasswordLength}" required aria-describedby="password-hint">
<p class="hint" id="password-hint">${input.minPasswordLength}文字以上で入力してください。</p>
<label for="nickname">ニックネーム（任意）</label>
<input id="nickname" name="nickname" type="text" autocomplete="nickname" maxlength="40" value="${escapeHtml(input.nickname)}">
<button type="submit" class="button">登録する</button>
</form>
<p>すでにアカウントをお持ちの方は <a href="${escapeHtml(input.action('login-page'))}">ログイン</a></p>
<footer>
<form method="post" action="${escapeHtml(input.action('abort'))}"><button type="submit" class="linkbutton">登録せずに${SITE_NAME}に戻る</button></form>
</footer>`,
  )
}

/**
 * After a sign-up (and after 再送): the confirmation link went by mail, never onto this page. In the demo, where
 * mails stay in the app's database, the page says where to read them.
 */
export function signupDonePage(input: {
  email: string
  sent: boolean
  resent?: boolean
  continueUrl: string
  resendAction: string
  mailboxUrl?: string
}): string {
  const title = input.sent
    ? input.resent
      ? '確認メールを再送しました'
      : '確認メールを送信しました'
    : '確認メールを送信できませんでした'
  return layout(
    title,
    `<h1>${title}</h1>
${
  input.sent
    ? `<p role="status"><strong>${escapeHtml(input.email)}</strong> 宛てに、メールアドレス確認用のリンクをお送りしました。メールのリンクを開いて確認を完了してください（有効期限は24時間です）。</p>`
    : `<div class="alert" role="alert">ただいまメールを送信できません。しばらくしてから再送してください。</div>`
}
${
  input.mailboxUrl
    ? `<div class="notice"><p>デモ環境のため、メールは実際には送信されず<a href="${escapeHtml(input.mailboxUrl)}" target="_blank" rel="noopener">メールボックス</a>に届きます。</p></div>`
    : ''
}
<form method="post" action="${escapeHtml(input.resendAction)}">
<input type="hidden" name="email" value="${escapeHtml(input.email)}">
<p class="muted">メールが届かない場合は、迷惑メールフォルダをご確認のうえ再送してください。</p>
<button type="submit" class="button secondary">確認メールを再送する</button>
</form>
<a class="button" href="${escapeHtml(input.continueUrl)}">${SITE_NAME}へ進む</a>`,
  )
}

export function verifyEmailPage(input: { verified: boolean; email?: string; continueUrl: string }): string {
  if (!input.verified) {
    return layout(
      'リンクが無効です',
      `<h1>リンクが無効です</h1>
<div class="alert" role="alert">このメールアドレス確認リンクは無効か、有効期限が切れています。</div>
<p>すでに確認済みの場合は、そのまま${SITE_NAME}をご利用いただけます。</p>
<a class="button" href="${escapeHtml(input.continueUrl)}">${SITE_NAME}に戻る</a>`,
    )
  }
  return layout(
    'メールアドレスを確認しました',
    `<h1>メールアドレスを確認しました</h1>
<p role="status"><strong>${escapeHtml(input.email)}</strong> の確認が完了しました。</p>
<p>${SITE_NAME}に戻って、プロフィールの登録に進んでください。</p>
<a class="button" href="${escapeHtml(input.continueUrl)}">${SITE_NAME}に戻る</a>`,
  )
}

export function messagePage(input: {
  title: string
  message: string
  detail?: string
  linkUrl: string
  linkLabel: string
}) {
  return layout(
    input.title,
    `<h1>${escapeHtml(input.title)}</h1>
<p>${escapeHtml(input.message)}</p>
${input.detail ? `<p class="muted">${escapeHtml(input.detail)}</p>` : ''}
<a class="button" href="${escapeHtml(input.linkUrl)}">${escapeHtml(input.linkLabel)}</a>`,
  )
}

/** The OIDC RP-initiated logout confirmation (/idp/oidc/logout); `form` is oidc-provider's hidden form. */
export function logoutConfirmPage(input: { form: string; siteUrl: string }) {
  return layout(
    'ログアウト',
    `<h1>ログアウトしますか？</h1>
${input.form}
<button type="submit" class="button" form="op.logoutForm" value="yes" name="logout" autofocus>ログアウトする</button>
<button type="submit" class="button secondary" form="op.logoutForm">ログインしたままにする</button>
<footer><a href="${escapeHtml(input.siteUrl)}">${SITE_NAME}に戻る</a></footer>`,
  )
}
