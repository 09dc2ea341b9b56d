/** CLI settings for `sanity build` / `sanity dev` (run from this folder). */
import {defineCliConfig} from 'sanity/cli'
import {dataset, projectId} from './env'

export default defineCliConfig({
  api: {projectId, dataset},
  // Ship the Studio with its bundled sanity version; no runtime module CDN (and no network at build).
  deployment: {autoUpdates: false},
})
