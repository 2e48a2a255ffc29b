// What the share does with its photos' hidden details, said once under the files: "Location
// removed from 3 photos", and the per-share switch that sends them as they are instead.
export function PhotoDetails(props: {
  /** Photos and videos among the files that hold a location. */
  located: number;
  keep: boolean;
  onKeep: (keep: boolean) => void;
}) {
  const { located, keep } = props;
  const photos = located === 1 ? '1 photo' : `${located} photos`;
  return (
    <div class="sheet__details">
      {located > 0 ? (
        <p class="field__help" role="status">
          {keep ? `Location kept in ${photos}` : `Location removed from ${photos}`}
        </p>
      ) : null}
      <label class="check">
        <input
          type="checkbox"
          checked={keep}
          onChange={(e) => props.onKeep(e.currentTarget.checked)}
        />
        <span>Keep photo details</span>
      </label>
    </div>
  );
}
