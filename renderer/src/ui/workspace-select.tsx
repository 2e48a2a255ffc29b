// The labelled workspace picker used wherever a person chooses where files go.
import type { WorkspaceView } from '../../../preload/contract';

export function WorkspaceSelect(props: {
  id: string;
  workspaces: readonly WorkspaceView[];
  value: string;
  onChange: (workspaceId: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id} class="field__label">
        Workspace
      </label>
      <select
        id={props.id}
        class="input"
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {props.workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </div>
  );
}
