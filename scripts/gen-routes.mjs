import { Generator, getConfig } from '@tanstack/router-generator'

const config = getConfig({
  routesDirectory: './src-client/routes',
  generatedRouteTree: './src-client/routeTree.gen.ts',
  quoteStyle: 'single',
  semicolons: false,
})
await new Generator({ config, root: process.cwd() }).run()
