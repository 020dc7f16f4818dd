// Saving a file the device made (a summary, a PDF) where the browser saves downloads: a link to it, clicked
// once, and let go of once the browser has taken the file.

export function saveFile(file: File): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
