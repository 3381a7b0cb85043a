// Tricky Gallery's kinds of work and their names, shared by the projector, phones and console.
(function () {
  "use strict";
  const { both } = window.I18N;

  window.GalleryKinds = {
    KINDS: ["premium", "motricky", "pearl", "piper"],
    NAMES: {
      premium: both("고급 작품", "Premium work"),
      motricky: both("모트리키", "Mona Tricky"),
      pearl: both("진주 귀걸이를 한 트리키", "Tricky with a Pearl Earring"),
      piper: both("피리부는 트리키", "Tricky the Piper"),
    },
    SHORT: {
      premium: both("고급", "Premium"),
      motricky: both("모트리키", "Mona"),
      pearl: both("진주 귀걸이", "Pearl"),
      piper: both("피리부는", "Piper"),
    },
  };
})();
