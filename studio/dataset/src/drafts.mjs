// Unpublished drafts (ids drafts.blogPost-...), with no published twin, for draft-preview tests.
import firstNinetyDays from './blog/first-90-days.mjs';

export default [firstNinetyDays];
