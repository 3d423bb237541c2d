const notes = JSON.parse(localStorage.getItem('notes') || '[]');
const main = document.getElementById('notes');
for (const note of notes) {
  const p = document.createElement('p');
  p.textContent = note.text;
  main.appendChild(p);
}
