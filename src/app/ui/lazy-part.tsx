import { lazy, useEffect, useState, type ComponentType, type ReactNode } from 'react';

// A part of a screen whose code loads after the screen (a microphone button, a Home card's content, a
// PDF viewer). The service worker keeps every part on the device once it has installed; until then, a
// device that lost its signal cannot fetch a part it has not opened yet. React.lazy would then throw, and
// the whole screen (with the form the person is typing into) would give way to an error. A lazy part
// instead shows what it was given for that case (nothing, for an extra such as the microphone) and asks
// again when the device is back online, or the next time it is drawn.

/** What a part shows while its code cannot be fetched: nothing, unless `unavailable` is given. */
export function lazyPart<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  unavailable: ReactNode = null,
): ComponentType<Props> {
  const Unavailable: ComponentType<Props> = () => unavailable;
  const attempt = () =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        () => {
          current = attempt(); // the next time the part is drawn asks again
          return { default: Unavailable };
        },
      ),
    );
  let current = attempt();

  function LazyPart(props: Props) {
    // The attempt this place shows is its own: a parent drawn again does not ask again (a device offline
    // would otherwise send a request at every render); coming back online does, and so does the next mount.
    const [Current, setCurrent] = useState(() => current);
    useEffect(() => {
      const askAgain = () => setCurrent(() => current);
      window.addEventListener('online', askAgain);
      return () => window.removeEventListener('online', askAgain);
    }, []);
    return <Current {...props} />;
  }
  return LazyPart;
}
