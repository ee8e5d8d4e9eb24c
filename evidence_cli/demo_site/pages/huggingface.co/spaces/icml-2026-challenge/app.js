// The Space's front end: its text arrives from the Space's API after the page loads, so
// a plain HTTP fetch of the page sees only "Loading…".
const response = await fetch("api/challenge.json");
const challenge = await response.json();
document.getElementById("root").innerHTML =
  "<main><article><h1>" + challenge.title + "</h1>" +
  challenge.paragraphs.map((p) => "<p>" + p + "</p>").join("") +
  "</article></main>";
