import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components'
import type { ReactNode } from 'react'

/** What every mail's footer needs: where to change the settings and, for optional kinds, the one-click stop. */
export interface MailFooter {
  siteName: string
  siteUrl: string
  settingsUrl: string
  /** Absent for mails that cannot be switched off (verification, refunds). */
  unsubscribeUrl?: string
}

const text = { fontSize: '15px', lineHeight: '1.7', color: '#1f2933', margin: '0 0 12px' }
const muted = { fontSize: '12px', lineHeight: '1.6', color: '#6b7280', margin: '0 0 6px' }

export function MailLayout(props: {
  preview: string
  heading: string
  footer: MailFooter
  children: ReactNode
}) {
  return (
    <Html lang="ja">
      <Head />
      <Preview>{props.preview}</Preview>
      <Body style={{ backgroundColor: '#f6f7f9', fontFamily: 'sans-serif', margin: 0, padding: '24px 0' }}>
        <Container
          style={{ backgroundColor: '#ffffff', maxWidth: '560px', padding: '24px', borderRadius: '8px' }}
        >
          <Text style={{ ...muted, fontWeight: 'bold', color: '#0f766e' }}>{props.footer.siteName}</Text>
          <Heading as="h1" style={{ fontSize: '20px', color: '#111827', margin: '8px 0 16px' }}>
            {props.heading}
          </Heading>
          {props.children}
          <Hr style={{ borderColor: '#e5e7eb', margin: '24px 0 12px' }} />
          <Text style={muted}>
            このメールは{props.footer.siteName}（
            <Link href={props.footer.siteUrl}>{props.footer.siteUrl}</Link>）から送信しています。
          </Text>
          <Text style={muted}>
            通知の設定は<Link href={props.footer.settingsUrl}>こちら</Link>から変更できます。
          </Text>
          {props.footer.unsubscribeUrl ? (
            <Text style={muted}>
              この種類のメールを停止するには<Link href={props.footer.unsubscribeUrl}>配信停止</Link>
              を開いてください。
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  )
}

export function P(props: { children: ReactNode }) {
  return <Text style={text}>{props.children}</Text>
}

/** Label / value rows (class, date, amount …). */
export function Details(props: { rows: [string, string][] }) {
  return (
    <Section
      style={{ backgroundColor: '#f3f4f6', borderRadius: '6px', padding: '12px 16px', margin: '0 0 16px' }}
    >
      {props.rows.map(([label, value]) => (
        <Text key={label} style={{ ...text, margin: '0 0 4px' }}>
          <strong>{label}</strong>：{value}
        </Text>
      ))}
    </Section>
  )
}

export function Action(props: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: '8px 0 16px' }}>
      <Button
        href={props.href}
        style={{
          backgroundColor: '#0f766e',
          color: '#ffffff',
          padding: '12px 20px',
          borderRadius: '6px',
          fontSize: '15px',
          fontWeight: 'bold',
        }}
      >
        {props.children}
      </Button>
    </Section>
  )
}
