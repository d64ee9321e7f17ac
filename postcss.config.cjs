// Panda writes the stylesheet; the second plugin drops the design tokens nothing reads (issue 27).
module.exports = {
  plugins: [require('@pandacss/dev/postcss')(), require('./scripts/postcss/prune-unused-tokens.cjs')()],
}
