import type { PluginCreator } from 'postcss'

declare const pruneUnusedTokens: PluginCreator<void>
export = pruneUnusedTokens
