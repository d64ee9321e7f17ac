// The look of HTML the server rendered from Markdown and sanitised (lesson articles, instructor bios).
import { css } from '#styled-system/css'

export const markdownArticle = css({
  lineHeight: 'relaxed',
  '& h2': { fontSize: 'xl', fontWeight: 'bold', mt: '6', mb: '3' },
  '& h3': { fontSize: 'lg', fontWeight: 'semibold', mt: '5', mb: '2' },
  '& p': { mb: '4' },
  '& ul, & ol': { pl: '6', mb: '4', display: 'grid', gap: '1' },
  '& ul': { listStyle: 'disc' },
  '& ol': { listStyle: 'decimal' },
  '& a': { color: 'accent', textDecoration: 'underline' },
  '& blockquote': { borderLeftWidth: '4px', borderColor: 'line', pl: '4', color: 'fg.muted', mb: '4' },
  '& code': { fontFamily: 'mono', bg: 'canvas', px: '1', borderRadius: 'sm' },
  '& pre': { bg: 'canvas', p: '4', borderRadius: 'control', overflowX: 'auto', mb: '4' },
})
