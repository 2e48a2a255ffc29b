// The share sheet: files picked or dropped, where they go, a comment and a thread, then Share.
// Its state and the Share call are in use-share-sheet.ts; the file list, the fields, the footer
// and the outcome are their own components beside it.
import type { Snapshot, View } from '../../../preload/contract';
import { countFiles } from '../format';
import { discardCaptures, mayBeCapture } from './capture-preview';
import { forgetUnconfirmed } from './edited-images';
import { PhotoDetails } from './photo-details';
import type { SheetDraft } from './share-draft';
import { CommentField, NoTokenNotice, SendToGroup, ThreadField } from './share-fields';
import { FilesGroup } from './share-file-list';
import { ShareFooter } from './share-footer';
import { ShareOutcome } from './share-outcome';
import { useShareSheet } from './use-share-sheet';

export type { SheetDraft };

export function ShareSheet(props: {
  snapshot: Snapshot;
  paths: string[];
  onPick: () => void;
  onRemove: (path: string) => void;
  /** An image edited in the editor: the new file takes the original's place. */
  onEdited: (original: string, edited: string) => void;
  /**
   * Closed: by Share or Cancel (the files go), or by Esc with `draft` (the files and what was
   * set stay, and the sheet opens with them again). Shared, `shareId` is the share just sent.
   */
  onClose: (next: View, draft?: SheetDraft, shareId?: string) => void;
  onShow: (view: View) => void;
  draft?: SheetDraft | null;
  /** An earlier draft the new files did not join, offered (draft-offer.tsx). */
  offer?: preact.ComponentChildren;
}) {
  const { snapshot, paths } = props;
  const sheet = useShareSheet(props);
  const { edit, draft, sent, workspace, channels, action } = sheet;
  const commented = draft.comment.trim() !== '';

  if (sheet.result) {
    return (
      <ShareOutcome
        result={sheet.result}
        onClose={props.onClose}
        onSendKeeping={() => void sheet.sendKeepingDetails()}
        busy={sheet.action.busy}
      />
    );
  }

  return (
    <section class="view" aria-labelledby="share-title">
      <header class="view__header">
        <h1 id="share-title" class="view__title" tabIndex={-1}>
          Share {countFiles(sent.files)}
        </h1>
      </header>
      {/* Only screenshots (captured or pasted): Share takes focus, so Enter sends them on. */}
      <form
        class={`sheet${paths.length > 0 && paths.every(mayBeCapture) ? ' sheet--quick' : ''}`}
        onSubmit={sheet.submit}
        noValidate
      >
        {props.offer}
        <SendToGroup
          snapshot={snapshot}
          draft={draft}
          channelError={draft.mode === 'channels' && sheet.attempted && draft.picked.length === 0}
          onMode={edit.setMode}
          onPreset={edit.choosePreset}
          onWorkspace={edit.setWorkspaceId}
          onPicked={edit.setPicked}
        />
        <CommentField
          comment={draft.comment}
          onInput={edit.editComment}
          onShare={() => void sheet.submit()}
        />
        <ThreadField thread={draft.thread} onInput={edit.editThread} />
        {/* The files come after where they go and the comment, where a person types first: the
            sheet opens at its top with the comment focused and in full view, even at a tray's
            360 × 520 (its title names how many files; the footer says where they go). */}
        <FilesGroup
          paths={paths}
          described={sheet.described}
          empties={sent.empties}
          emptyQuestion={sheet.question}
          onRemove={props.onRemove}
          onEdited={props.onEdited}
          smallerEdge={snapshot.preferences.sendSmallerEdge}
          openCaptures={snapshot.preferences.openCapturesInEditor}
          onPick={props.onPick}
          onSendEmpty={sheet.sendAnyway}
        />
        <PhotoDetails
          located={sent.located}
          keep={sheet.keepDetails}
          onKeep={sheet.setKeepDetails}
        />
        <NoTokenNotice workspace={workspace} onShow={props.onShow} />
        <ShareFooter
          summary={{
            files: sent.files,
            leftOut: sent.leftOut,
            channels: workspace ? sheet.named(workspace.id, channels) : channels,
            workspace: workspace?.name ?? '',
            comment: commented,
          }}
          problem={sheet.attempted || (paths.length > 0 && sent.files === 0) ? sheet.problem : null}
          onChooseThreadChannel={sheet.chooseThreadChannel}
          error={action.error}
          busy={action.busy}
          protocol={workspace?.protocol}
          onCancel={() => {
            discardCaptures(paths);
            forgetUnconfirmed(paths);
            props.onClose('drop');
          }}
        />
      </form>
    </section>
  );
}
