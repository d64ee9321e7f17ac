// Every cookie the server sets, as the cookie policy (/cookies) lists them: the names it may set and what the policy
// says of them. tests/unit/cookie-policy.test.ts fails when the server sets a cookie named in no entry here.
export const COOKIES = [
  { names: ['session'], says: 'Session cookie: keeps you signed in (up to 30 days if you choose Remember me)' },
  {
    names: ['login_pending'],
    says: 'Two-step sign-in cookie: holds your sign-in while you enter your second-factor code (10 minutes)',
  },
  {
    names: ['oauth_state', 'oauth_verifier', 'oauth_flow', 'sso_flow'],
    says: 'Sign-in state cookie: protects social sign-in with Google or Facebook, and a school’s own sign-in (10 minutes)',
  },
  {
    names: ['sf_handoff'],
    says: 'Sign-in hand-off cookie: on a school’s own web address, ties the sign-in you make on SkillForge to your browser (15 minutes)',
  },
  {
    names: ['signup_browser'],
    says: 'Sign-up cookie: lets the verification link we e-mail you confirm your address at once in the browser you signed up in (one day)',
  },
  {
    names: ['chat_visitor'],
    says: 'Live chat cookie: keeps a chat you started without signing in yours, so only your browser sees it (one day)',
  },
] as const
