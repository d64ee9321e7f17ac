// Refuses to go on under a Node older than package.json's engines (npm ci's preinstall, npm start, serve, dev,
// worker), so a newcomer reads what to do instead of "Unknown file extension .ts". Plain CommonJS with no
// dependencies: it must run on any old Node. CHECK_NODE_VERSION stands in for the running version (tests only).
'use strict'
const path = require('node:path')

const wanted = require(path.join(__dirname, '..', 'package.json')).engines.node
const neededMajor = Number(/\d+/.exec(wanted)[0])

/** The message for a Node too old to run the project, or null when `version` (e.g. "v20.19.2") will do. */
function nodeProblem(version) {
  // No ?. or ??: this line must parse on Node versions older than those operators.
  const match = /^v?(\d+)/.exec(version)
  const major = match ? Number(match[1]) : 0
  if (major >= neededMajor) return null
  return (
    `This project needs Node ${neededMajor} (found ${version}). ` +
    'Run `source scripts/ci/use-node.sh` or use the version in .nvmrc (e.g. `nvm use`).'
  )
}

module.exports = { nodeProblem }

if (require.main === module) {
  const problem = nodeProblem(process.env.CHECK_NODE_VERSION || process.version)
  if (problem) {
    console.error(problem)
    process.exit(1)
  }
}
