import { defineLocaleResourceBundle } from 'sanity';
import { UPLOAD_REFUSED_DESCRIPTION } from '../app/lib/image-limits';

/**
 * The image field's message when the lake refuses an upload (issue 40, item 7): Studio 4.22.1
 * shows "See the console for more information" (the field's uploader) or "The upload could not be
 * completed at this time" (its older path) whatever the lake answered; this names what the lake
 * accepts, an image its resizer can read. The lake takes images only (no schema has a file field).
 */
export const uploadMessages = defineLocaleResourceBundle({
  locale: 'en-US',
  namespace: 'studio',
  resources: {
    'asset-sources.common.uploader.upload-failed.description': UPLOAD_REFUSED_DESCRIPTION,
    'inputs.image.upload-error.description': UPLOAD_REFUSED_DESCRIPTION,
  },
});
