// Panda writes every design token of its presets as a custom property (`@layer tokens { :where(:root,:host) {…} }`):
// 459 of them, a quarter of the stylesheet, which every server-rendered page carries inline (issue 27). This drops the
// ones nothing reads: a token stays when a rule outside the tokens layer (or another kept token) names it in var().
// The app sets no token from JavaScript or inline styles (its styles are css() calls, which Panda writes here), so the
// stylesheet itself says what is used.
const VAR_REFERENCE = /var\(\s*(--[\w-]+)/g

function referencedVariables(text) {
  return Array.from(text.matchAll(VAR_REFERENCE), (match) => match[1])
}

/** @type {import('postcss').PluginCreator<void>} */
module.exports = () => ({
  postcssPlugin: 'prune-unused-tokens',
  OnceExit(root) {
    const definitions = new Map()
    const used = new Set()
    root.walkDecls((declaration) => {
      const layer = declaration.parent?.parent
      const inTokensLayer = layer?.type === 'atrule' && layer.name === 'layer' && layer.params === 'tokens'
      if (inTokensLayer && declaration.prop.startsWith('--')) {
        const list = definitions.get(declaration.prop) ?? []
        list.push(declaration)
        definitions.set(declaration.prop, list)
      } else {
        for (const name of referencedVariables(declaration.value)) used.add(name)
      }
    })
    // A kept token may itself read others (semantic tokens: --colors-accent: var(--colors-brand-600)).
    const pending = [...used]
    while (pending.length > 0) {
      const name = pending.pop()
      for (const declaration of definitions.get(name) ?? []) {
        for (const reference of referencedVariables(declaration.value)) {
          if (!used.has(reference)) {
            used.add(reference)
            pending.push(reference)
          }
        }
      }
    }
    for (const [name, declarations] of definitions) {
      if (!used.has(name)) for (const declaration of declarations) declaration.remove()
    }
  },
})
module.exports.postcss = true
