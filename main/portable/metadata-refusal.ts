// The refusal code of a photo or video whose hidden details could not be removed safely (its
// structure is damaged or truncated): the core refuses the file with it, and the share sheet's
// outcome offers to send such files as they are when the person chooses so.
export const METADATA_UNREADABLE = 'metadata_unreadable';
